/// The clock's batch lane (internal): the time-dependent numbers of simply running animators in
/// one contiguous buffer, advanced and sampled in a tight loop.
///
/// A ``PropertyAnimator`` registered with a ``VirtualClock`` joins the lane after a tick when it
/// runs its own curve (no retimed segment, no pending delay) and the curve is linear or a cubic
/// Bézier. While it is in the lane, the lane's `u` and `p` are the animator's; any operation
/// on the animator (anything that writes its playhead) first copies them back and takes it out
/// of the lane, and the clock puts it back after its next tick if it is still eligible. A tick
/// that would end the run leaves the lane untouched and lets the animator end itself, so
/// completions, events and values are exactly those of the per-object path. The arithmetic is
/// the same as ``AnimatorPlayhead/advance(by:timing:duration:)`` and ``CubicBezier``, so the
/// results are bit-identical; the lane only removes per-object overhead (reference counting,
/// exclusivity checks, dynamic dispatch, recomputed Bézier tables, scattered memory).
final class AnimatorLane {
    /// Where an animator sits in a lane.
    struct Slot {
        let lane: AnimatorLane
        let index: Int
    }

    /// One slot per registered clock member, in registration order.
    struct Entry {
        /// Forward time fraction.
        var u: Double
        /// Forward presented progress.
        var p: Double
        /// Time fraction per second (finite).
        var speed: Double
        /// The first animation's value at `p` (when ``hasPrimary``).
        var value: Double
        /// The first animation (``ScalarFastPath``) when it is a number.
        var from: Double, to: Double, origin: Double, span: Double
        /// Index into the curve table, or -1 for a linear curve.
        var curve: Int32
        var isActive: Bool
        var reversed: Bool
        var hasPrimary: Bool
        var clamps: Bool

        static let empty = Entry(u: 0, p: 0, speed: 0, value: .nan, from: 0, to: 0, origin: 0, span: 0, curve: -1,
                                 isActive: false, reversed: false, hasPrimary: false, clamps: false)
    }

    private(set) var entries: UnsafeMutablePointer<Entry>
    private(set) var count = 0
    private var capacity = 0
    /// The Bézier curves of the lane's slots, prepared once each.
    let curves = CubicBezierSolver()
    private var curveIndex: [CubicBezier: Int32] = [:]
    /// Curves the prepared solver does not take (their animators stay out of the lane).
    private var refusedCurves: Set<CubicBezier> = []
    /// The slots advanced in the current run whose Bézier curve is still to be solved (capacity: `capacity`).
    private var pending: UnsafeMutablePointer<Int32>
    /// More distinct curves than this are not worth a table entry (≈ 7 KB each); such animators stay out of the lane.
    static let maximumCurves = 1024

    init() {
        entries = .allocate(capacity: 1)
        pending = .allocate(capacity: 1)
        capacity = 1
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        pending.deallocate()
    }

    /// Adds an inactive slot at the end.
    func append() {
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
            pending.deallocate()
            pending = .allocate(capacity: capacity * 2)
            capacity *= 2
        }
        (entries + count).initialize(to: .empty)
        count += 1
    }

    /// Removes the last slot (every slot must be inactive when slots are removed).
    func removeLast() {
        precondition(count > 0)
        count -= 1
        (entries + count).deinitialize(count: 1)
    }

    /// The table index of a curve, or `nil` when the curve cannot be batched.
    func curveSlot(for timing: TimingCurve) -> Int32? {
        switch timing {
        case .linear:
            return -1
        case .cubic(let bezier):
            if let index = curveIndex[bezier] { return index }
            guard curves.count < Self.maximumCurves, !refusedCurves.contains(bezier) else { return nil }
            guard let index = curves.append(bezier) else {
                refusedCurves.insert(bezier)
                return nil
            }
            curveIndex[bezier] = index
            return index
        default:
            return nil
        }
    }

    /// Advances consecutive active slots from `start`; returns the first slot it did not advance
    /// (an inactive slot, or one whose run ends in this tick), or `end`.
    ///
    /// Mirrors ``AnimatorPlayhead/advance(by:timing:duration:)`` for the schedule motion. A Bézier slot is solved in
    /// the loop when its grid bucket is certified (``CubicBezierSolver/certifiedProgress(_:_:at:)``, the arithmetic
    /// of ``CubicBezier/progress(at:)``); the few others are set aside and solved by
    /// ``CubicBezierSolver/progress(_:_:at:)`` before the function returns, so every advanced slot is complete when
    /// the caller next looks at the lane.
    @inline(__always)
    func advanceRun(from start: Int, to end: Int, dt: Double) -> Int {
        let entries = self.entries, pending = self.pending, table = curves.table
        let epsilon = PropertyAnimator.timeEpsilon
        var waiting = 0
        var i = start
        while i < end {
            let entry = entries + i
            guard entry.pointee.isActive else { break }
            let speed = entry.pointee.speed
            let step = speed * dt
            let slack = speed * epsilon
            var u = entry.pointee.u
            if entry.pointee.reversed {
                u -= step
                if u <= slack { break }
            } else {
                u += step
                if u >= 1 - slack { break }
            }
            entry.pointee.u = u
            let curve = entry.pointee.curve
            var p = u
            if curve >= 0 {
                let solved = CubicBezierSolver.certifiedProgress(table, curve, at: u)
                p = solved.progress
                if !solved.applies {
                    pending[waiting] = Int32(truncatingIfNeeded: i)
                    waiting += 1
                }
            }
            entry.pointee.p = p
            if entry.pointee.hasPrimary { entry.pointee.value = Self.value(entry.pointee, atProgress: p) }
            i += 1
        }
        for k in 0..<waiting {
            let entry = entries + Int(pending[k])
            let p = CubicBezierSolver.progress(table, Int(entry.pointee.curve), at: entry.pointee.u)
            entry.pointee.p = p
            if entry.pointee.hasPrimary { entry.pointee.value = Self.value(entry.pointee, atProgress: p) }
        }
        return i
    }

    /// ``ScalarFastPath/value(atProgress:)`` with the entry's numbers (same results: dividing by a span of 1, the
    /// usual one, is skipped, as it changes nothing).
    @inline(__always)
    static func value(_ entry: Entry, atProgress p: Double) -> Double {
        let offset = p - entry.origin
        let q = entry.span == 1 ? offset : entry.span != 0 ? offset / entry.span : 1
        return entry.from + (entry.to - entry.from) * (entry.clamps ? max(0, q) : q)
    }
}
