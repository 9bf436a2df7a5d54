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
    /// The slots advanced in the current run whose Bézier curve is still to be solved (capacity: `capacity`).
    private var pending: UnsafeMutablePointer<Int32>
    /// More distinct curves than this are not worth a table entry; such animators stay out of the lane.
    static let maximumCurves = 4096

    init() {
        entries = .allocate(capacity: 1)
        curves = .allocate(capacity: 1)
        pending = .allocate(capacity: 1)
        capacity = 1
        curveCapacity = 1
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        curves.deinitialize(count: curveCount)
        curves.deallocate()
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
    /// Mirrors ``AnimatorPlayhead/advance(by:timing:duration:)`` for the schedule motion. Slots
    /// with a Bézier curve are set aside and solved together, four at a time
    /// (``solvePending(_:)``), before the function returns, so every advanced slot is complete
    /// when the caller next looks at the lane.
    @inline(__always)
    func advanceRun(from start: Int, to end: Int, dt: Double) -> Int {
        let entries = self.entries, pending = self.pending
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
            if entry.pointee.curve < 0 {
                entry.pointee.p = u
                if entry.pointee.hasPrimary {
                    entry.pointee.value = Self.value(entry.pointee, atProgress: u)
                }
            } else {
                pending[waiting] = Int32(truncatingIfNeeded: i)
                waiting += 1
            }
            i += 1
        }
        if waiting > 0 { solvePending(waiting) }
        return i
    }

    /// Solves the curves of the first `count` pending slots, four at a time, and stores their
    /// progress and value.
    ///
    /// Each slot's Newton start is found by the scalar bracket search; the Newton iterations then
    /// run in vector registers (``CubicBezierSolver/newton(x:start:a:b:c:ay:by:cy:)``, the scalar
    /// iteration exactly, lane by lane). Lanes the scalar solver would finish by bisection, and
    /// the last `count % 4` slots, are solved by ``CubicBezierSolver/progress(at:)``.
    @inline(__always)
    private func solvePending(_ count: Int) {
        let entries = self.entries, curves = self.curves, pending = self.pending
        var k = 0
        while k + 4 <= count {
            let e0 = entries + Int(pending[k]), e1 = entries + Int(pending[k + 1])
            let e2 = entries + Int(pending[k + 2]), e3 = entries + Int(pending[k + 3])
            let s0 = curves + Int(e0.pointee.curve), s1 = curves + Int(e1.pointee.curve)
            let s2 = curves + Int(e2.pointee.curve), s3 = curves + Int(e3.pointee.curve)
            let x = SIMD4(e0.pointee.u, e1.pointee.u, e2.pointee.u, e3.pointee.u)
            let b0 = Self.bracketParts(s0, x[0]), b1 = Self.bracketParts(s1, x[1])
            let b2 = Self.bracketParts(s2, x[2]), b3 = Self.bracketParts(s3, x[3])
            let start = CubicBezierSolver.start(
                x: x, lower: SIMD4(b0.lower, b1.lower, b2.lower, b3.lower),
                previous: SIMD4(b0.previous, b1.previous, b2.previous, b3.previous),
                span: SIMD4(b0.span, b1.span, b2.span, b3.span))
            var (p, solved) = CubicBezierSolver.newton(
                x: x, start: start,
                a: SIMD4(s0.pointee.ax, s1.pointee.ax, s2.pointee.ax, s3.pointee.ax),
                b: SIMD4(s0.pointee.bx, s1.pointee.bx, s2.pointee.bx, s3.pointee.bx),
                c: SIMD4(s0.pointee.cx, s1.pointee.cx, s2.pointee.cx, s3.pointee.cx),
                ay: SIMD4(s0.pointee.ay, s1.pointee.ay, s2.pointee.ay, s3.pointee.ay),
                by: SIMD4(s0.pointee.by, s1.pointee.by, s2.pointee.by, s3.pointee.by),
                cy: SIMD4(s0.pointee.cy, s1.pointee.cy, s2.pointee.cy, s3.pointee.cy))
            if !all(solved) {
                if !solved[0] { p[0] = s0.pointee.progress(at: x[0]) }
                if !solved[1] { p[1] = s1.pointee.progress(at: x[1]) }
                if !solved[2] { p[2] = s2.pointee.progress(at: x[2]) }
                if !solved[3] { p[3] = s3.pointee.progress(at: x[3]) }
            }
            Self.store(p[0], in: e0)
            Self.store(p[1], in: e1)
            Self.store(p[2], in: e2)
            Self.store(p[3], in: e3)
            k += 4
        }
        while k < count {
            let entry = entries + Int(pending[k])
            Self.store(curves[Int(entry.pointee.curve)].progress(at: entry.pointee.u), in: entry)
            k += 1
        }
    }

    /// The parts of a slot's Newton start; a time fraction outside `0 < x < 1` goes to the scalar
    /// solver, and any start will do for it.
    @inline(__always)
    private static func bracketParts(_ solver: UnsafePointer<CubicBezierSolver>,
                                     _ x: Double) -> (lower: Double, previous: Double, span: Double) {
        x > 0 && x < 1 ? solver.pointee.bracketParts(x) : (x, 0, 0)
    }

    @inline(__always)
    private static func store(_ p: Double, in entry: UnsafeMutablePointer<Entry>) {
        entry.pointee.p = p
        if entry.pointee.hasPrimary {
            entry.pointee.value = value(entry.pointee, atProgress: p)
        }
    }

    /// ``ScalarFastPath/value(atProgress:)`` with the entry's numbers (same arithmetic).
    @inline(__always)
    static func value(_ entry: Entry, atProgress p: Double) -> Double {
        let q = entry.span != 0 ? (p - entry.origin) / entry.span : 1
        return entry.from + (entry.to - entry.from) * (entry.clamps ? max(0, q) : q)
    }
}
