import Dispatch
import Foundation

/// Runs one piece of work per clip on all cores and hands the results back in clip order, so what an exporter
/// writes and reports is the same for any number of cores.
///
/// Workers take the next clip when they finish one. The work must only read what the clips share (the document,
/// a `PoseSampler`) or go through its own locks.
enum ClipWorkers {
    /// `body(index)` for every index in `0 ..< count`, in index order, on at most `jobs` threads (default: one per
    /// core).
    static func map<Output>(_ count: Int, jobs: Int? = nil, _ body: (Int) -> Output) -> [Output] {
        let workers = min(max(jobs ?? ProcessInfo.processInfo.activeProcessorCount, 1), count)
        guard workers > 1 else { return (0..<count).map(body) }
        let slots = Slots<Output>(count: count)
        withoutActuallyEscaping(body) { body in
            let work = UncheckedBody(body: body)
            DispatchQueue.concurrentPerform(iterations: workers) { _ in
                while let index = slots.next() { slots.fill(index, work.body(index)) }
            }
        }
        return slots.results
    }

    /// The work, shared by the workers (it only reads shared state, as the type's documentation asks).
    private struct UncheckedBody<Output>: @unchecked Sendable {
        let body: (Int) -> Output
    }

    /// Hands out indices and keeps each result in its slot.
    private final class Slots<Output>: @unchecked Sendable {
        private let lock = NSLock()
        private var cursor = 0
        private var slots: [Output?]

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        /// The next index, or `nil` when every one is taken.
        func next() -> Int? {
            lock.lock(); defer { lock.unlock() }
            guard cursor < slots.count else { return nil }
            cursor += 1
            return cursor - 1
        }

        func fill(_ index: Int, _ output: Output) {
            lock.lock(); defer { lock.unlock() }
            slots[index] = output
        }

        /// Every slot's result in index order (all filled once the workers return).
        var results: [Output] {
            lock.lock(); defer { lock.unlock() }
            return slots.map { $0! }
        }
    }
}
