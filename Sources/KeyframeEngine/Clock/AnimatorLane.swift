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
/// exclusivity checks, dynamic dispatch, recomputed Bézier samples, scattered memory).
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
    private(set) var curves: UnsafeMutablePointer<CubicBezierSolver>
    private var curveCount = 0
    private var curveCapacity = 0
    private var curveIndex: [CubicBezier: Int32] = [:]
    /// More distinct curves than this are not worth a table entry; such animators stay out of the lane.
    static let maximumCurves = 4096

    init() {
        entries = .allocate(capacity: 1)
        curves = .allocate(capacity: 1)
        capacity = 1
        curveCapacity = 1
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        curves.deinitialize(count: curveCount)
        curves.deallocate()
    }

    /// Adds an inactive slot at the end.
    func append() {
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: entries, count: count)
            entries.deallocate()
            entries = grown
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
            // The solver's bracket search relies on x(t) rising, which holds for x1, x2 in 0...1.
            guard (0...1).contains(bezier.x1), (0...1).contains(bezier.x2) else { return nil }
            if let index = curveIndex[bezier] { return index }
            let solver = CubicBezierSolver(bezier)
            guard curveCount < Self.maximumCurves, solver.hasRisingSamples else { return nil }
            if curveCount == curveCapacity {
                let grown = UnsafeMutablePointer<CubicBezierSolver>.allocate(capacity: curveCapacity * 2)
                grown.moveInitialize(from: curves, count: curveCount)
                curves.deallocate()
                curves = grown
                curveCapacity *= 2
            }
            (curves + curveCount).initialize(to: solver)
            let index = Int32(curveCount)
            curveIndex[bezier] = index
            curveCount += 1
            return index
        default:
            return nil
        }
    }

    /// Advances consecutive active slots from `start`; returns the first slot it did not advance
    /// (an inactive slot, or one whose run ends in this tick), or `end`.
    ///
    /// Mirrors ``AnimatorPlayhead/advance(by:timing:duration:)`` for the schedule motion.
    @inline(__always)
    func advanceRun(from start: Int, to end: Int, dt: Double) -> Int {
        let entries = self.entries, curves = self.curves
        let epsilon = PropertyAnimator.timeEpsilon
        var i = start
        while i < end {
            let entry = entries + i
            guard entry.pointee.isActive else { return i }
            let speed = entry.pointee.speed
            let step = speed * dt
            let slack = speed * epsilon
            var u = entry.pointee.u
            if entry.pointee.reversed {
                u -= step
                if u <= slack { return i }
            } else {
                u += step
                if u >= 1 - slack { return i }
            }
            let curve = entry.pointee.curve
            let p = curve < 0 ? u : curves[Int(curve)].progress(at: u)
            entry.pointee.u = u
            entry.pointee.p = p
            if entry.pointee.hasPrimary {
                entry.pointee.value = Self.value(entry.pointee, atProgress: p)
            }
            i += 1
        }
        return end
    }

    /// ``ScalarFastPath/value(atProgress:)`` with the entry's numbers (same arithmetic).
    @inline(__always)
    static func value(_ entry: Entry, atProgress p: Double) -> Double {
        let q = entry.span != 0 ? (p - entry.origin) / entry.span : 1
        return entry.from + (entry.to - entry.from) * (entry.clamps ? max(0, q) : q)
    }
}
