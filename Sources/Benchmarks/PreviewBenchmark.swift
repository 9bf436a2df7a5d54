import Foundation
import KeyframeFiles
import KeyframeImport
import KeyframeModel
import KeyframePNG
import KeyframePreview
import KeyframeRender

/// Measures `keyframe preview` against `keyframe render` of the same frames, in the same run.
///
/// Both import the export and render the same frames through the same ``RenderSession`` settings as the commands
/// (`--fit content --size S×S --jobs 1`, fast PNG, the output rate chosen so the clip lasts the asked number of
/// frames); `render` writes the frames into a folder, `preview` also reads them back and writes the page. Runs
/// alternate; the fastest of each is kept, in wall and process CPU time. Goal: preview ≤ 1.2 × render.
public enum PreviewBenchmark {
    /// What to measure.
    public struct Configuration: Sendable {
        /// The export.
        public var input: URL
        /// The clip (default: the first).
        public var clip: String?
        /// Frames to render.
        public var frames = 100
        /// Output size (square).
        public var size = 512
        /// Repetitions; the fastest is kept.
        public var repetitions = 5

        public init(input: URL) { self.input = input }
    }

    /// The figures of one benchmark run.
    public struct Report: Sendable, CustomStringConvertible {
        public var configuration: Configuration
        public var clip: String
        public var render: BenchmarkClock.Span
        public var preview: BenchmarkClock.Span
        /// The page's size in bytes.
        public var pageBytes: Int

        public var description: String {
            let frames = Double(configuration.frames)
            let megabytes = String(format: "%.1f MB", Double(pageBytes) / 1_048_576)
            return """
            \(configuration.input.lastPathComponent) \(clip): \(configuration.frames) frames at \(configuration.size)², \
            fastest of \(max(1, configuration.repetitions))
            \(String(format: "render  %8.1f ms wall  %8.1f ms CPU  %6.1f frames/s", render.wall * 1000, render.processCPU * 1000, frames / render.wall))
            \(String(format: "preview %8.1f ms wall  %8.1f ms CPU  %6.1f frames/s  page ", preview.wall * 1000, preview.processCPU * 1000, frames / preview.wall) + megabytes)
            \(String(format: "preview / render: %.3f× wall, %.3f× CPU", preview.wall / render.wall, preview.processCPU / render.processCPU))
            """
        }
    }

    /// Runs the benchmark; frames and pages go to scratch folders that are removed afterwards.
    public static func run(_ configuration: Configuration) throws(BenchmarkError) -> Report {
        do {
            let document = try Importer.importDocument(at: configuration.input)
            guard let clip = configuration.clip.flatMap({ document.clip(named: $0) }) ?? document.clips.first else {
                throw BenchmarkError("\(configuration.input.path) has no clip \(configuration.clip ?? "")")
            }
            let seconds = clip.duration.value / document.frameRate.framesPerSecond
            let fps = Double(configuration.frames) / seconds
            /// What `render` and `preview` do first: import, decode the atlases, set up the session.
            func session(into folder: URL) throws -> RenderSession {
                let document = try Importer.importDocument(at: configuration.input)
                var session = RenderSession(scene: try RenderScene(document: document,
                                                                   assetsFolder: try Importer.detect(configuration.input).folder))
                session.clips = [clip.name]
                session.fps = fps
                session.fit = .content
                session.size = (configuration.size, configuration.size)
                session.png = PNGEncodingOptions(preset: .fast)
                session.jobs = 1
                session.selection = .range(0...(configuration.frames - 1))
                session.outputFolder = folder
                return session
            }
            var render = BenchmarkClock.Span.worst, preview = BenchmarkClock.Span.worst
            var pageBytes = 0
            for _ in 0..<max(1, configuration.repetitions) {
                let renderScratch = try ScratchFolder(.benchRender)
                render = render.fastest(try BenchmarkClock.measure {
                    _ = try session(into: URL(fileURLWithPath: renderScratch.path)).run()
                }.span)
                renderScratch.remove()

                let previewScratch = try ScratchFolder(.benchPreview)
                let folder = URL(fileURLWithPath: previewScratch.path)
                let (bytes, span) = try BenchmarkClock.measure { () throws -> Int in
                    let session = try session(into: folder.appendingPathComponent("frames"))
                    let sequences = try session.run().map { summary in
                        PreviewSequence(name: summary.name, clip: session.scene.document.clip(named: summary.name),
                                        width: summary.framing.width, height: summary.framing.height,
                                        frames: try zip(summary.frames, summary.paths).map { plan, path in
                                            PreviewSequence.Frame(number: plan.number, seconds: plan.seconds,
                                                                  png: try InputFile.read(path))
                                        })
                    }
                    let page = try PreviewPage(title: document.name, document: session.scene.document, fps: fps,
                                           sequences: sequences).htmlBytes()
                    try AtomicFile.write(page, to: folder.appendingPathComponent("page.html").path)
                    return page.count
                }
                preview = preview.fastest(span)
                pageBytes = bytes
                previewScratch.remove()
            }
            return Report(configuration: configuration, clip: clip.name, render: render, preview: preview,
                          pageBytes: pageBytes)
        } catch let error as BenchmarkError {
            throw error
        } catch {
            throw BenchmarkError("\(configuration.input.path): \(error)")
        }
    }
}
