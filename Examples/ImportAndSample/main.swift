// Imports an export (Animate, DragonBones, Flump or a normalized document) and samples a pose of every clip.
//
//     swift run ImportAndSample Samples/animate-walker
import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel

let path = CommandLine.arguments.dropFirst().first ?? "Samples/animate-walker"
let document = try Importer.importDocument(at: URL(fileURLWithPath: path))
let sampler = PoseSampler(document: document)
for clip in document.clips {
    let seconds = document.frameRate.seconds(for: clip.duration)
    let middle = sampler.sample(clip: clip, time: Frames(clip.duration.value / 2))
    print("\(clip.name): \(Int(clip.duration.value)) frames, \(seconds.value) s, "
        + "\(middle.items.count) pictures drawn halfway")
    if let first = middle.items.first {
        let m = first.transform
        print("  first picture \(first.sprite) at (\(m.tx), \(m.ty))")
    }
}
let json: [UInt8] = document.jsonBytes()  // deterministic: the same input gives the same bytes
let again = try Document(jsonBytes: json)  // checks format and schemaVersion first
print("normalized JSON: \(json.count) bytes, reads back equal: \(again == document)")
