// Drives a clip with an interruptible property animator on a deterministic clock: start, pause, scrub, reverse
// halfway, and continue to the start, printing the clip time and what is drawn at every step.
//
//     swift run AnimatorsOnAClock Samples/animate-walker walk
import Foundation
import KeyframeEngine
import KeyframeImport
import KeyframeModel

let arguments = Array(CommandLine.arguments.dropFirst())
let document = try Importer.importDocument(at: URL(fileURLWithPath: arguments.first ?? "Samples/animate-walker"))
guard let clip = arguments.count > 1 ? document.clips.first(where: { $0.name == arguments[1] }) : document.clips.first
else { fatalError("no such clip") }
let sampler = PoseSampler(document: document)
let duration = document.frameRate.seconds(for: clip.duration)

let clock = VirtualClock()
let animator = PropertyAnimator(duration: duration, timing: .easeInEaseOut)
let playhead = try animator.addAnimations(.clip(duration: duration))
animator.addCompletion { position in print("completed at \(position)") }
clock.register(animator)

/// Prints the animator's clip time, the clip frame it shows and how many pictures that frame draws.
@MainActor func show(_ step: String) {
    let time = animator.value(of: playhead)?.clipTime ?? .zero
    let frame = Frames(time.value * document.frameRate.framesPerSecond)
    let pose = sampler.sample(clip: clip, time: frame)
    print(String(format: "%@: t=%.4f s, frame %.3f, %d pictures, fraction %.4f", step, time.value, frame.value,
                 pose.items.count, animator.fractionComplete.value))
}

let tick = Seconds(1.0 / 60)
try animator.start()
for _ in 0..<10 { clock.advance(by: tick) }
show("after 10 ticks")
try animator.pause()
try animator.setFractionComplete(Progress(0.5))  // scrub, as a pan gesture would
show("scrubbed to half")
try animator.setReversed(true)
try animator.continue(timing: nil, durationFactor: 0.5)
show("reversed")
var ticks = 0
while animator.isRunning && ticks < 10_000 {
    clock.advance(by: tick)
    ticks += 1
}
show("after \(ticks) more ticks")
