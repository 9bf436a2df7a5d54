// Renders a clip and checks its frames against approved ones, as a test or a CI step would; exits 1 when a frame
// differs.
//
//     swift run VerifyFrames Samples/animate-walker walk golden/walker
import Foundation
import KeyframeImport
import KeyframeRender
import KeyframeVerify

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 3 else { fatalError("usage: VerifyFrames EXPORT CLIP GOLDEN_FOLDER") }
let input = URL(fileURLWithPath: arguments[0])
let frames = FileManager.default.temporaryDirectory.appendingPathComponent("verify-frames-\(getpid())")
defer { try? FileManager.default.removeItem(at: frames) }

let document = try Importer.importDocument(at: input)
var session = RenderSession(scene: try RenderScene(document: document, assetsFolder: try Importer.detect(input).folder))
session.clips = [arguments[1]]
session.outputFolder = frames
let rendered = try session.run().flatMap { summary in
    zip(summary.frames, summary.paths).map { plan, path in
        RenderedFrame(clip: summary.name, number: plan.number, fileName: (path as NSString).lastPathComponent,
                      path: path)
    }
}

let verifier = GoldenVerifier(goldenFolder: URL(fileURLWithPath: arguments[2]),
                              criteria: VerifyCriteria(tolerance: 2))
let report = try verifier.verify(rendered)
print(report.summary)
for failure in report.failures { print("\(failure.fileName): \(failure.message)") }
exit(report.passed ? 0 : 1)
