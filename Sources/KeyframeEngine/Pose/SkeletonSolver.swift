import Foundation
import KeyframeModel

/// Places the bones of a composition the way DragonBones does when a bone does not inherit everything from its
/// parent, or when IK constraints bend bones towards targets.
///
/// The rules follow DragonBonesJS 5.7 (`Bone._updateGlobalTransformMatrix`, `IKConstraint`): a bone's local
/// components (its tracks) are combined with the parent's world transform according to its inheritance flags; an
/// IK constraint runs when its root bone is placed, after the target bone and before the root's children. Results
/// are in composition space (before the transform of whatever shows the composition).
struct SkeletonSolver {
    /// Whether `composition` needs this solver: the plain parent-times-local rule is exact otherwise.
    static func isNeeded(for composition: Composition) -> Bool {
        !composition.ik.isEmpty || composition.nodes.contains { !($0.bone?.inheritsEverything ?? true) }
    }

    /// What solving a composition needs that does not change with time, worked out once per composition so that
    /// solving a frame reads no node ids and copies no nodes.
    struct Plan: Sendable {
        /// An IK constraint with its node ids resolved to indices.
        struct Constraint: Sendable {
            /// The constrained bone.
            var bone: Int
            /// The target bone; `nil` when the id names no node (the constraint is then skipped).
            var target: Int?
            /// ``IKConstraint/weight``.
            var weight: Double
            /// ``IKConstraint/bendPositive``.
            var bendPositive: Bool
        }

        /// ``SkeletonSolver/boneParents(of:indices:)``.
        let boneParents: [Int?]
        /// The bone nodes (kind `bone`, or with inheritance flags) in node order: the order they are placed in.
        let bones: [Int]
        /// Each node's inheritance flags (the defaults for a node without).
        let flags: [BoneInheritance]
        /// The constraints run when each node is placed (by node index), in the composition's order: a one-bone
        /// constraint is rooted at its bone, a chain at the bone's parent.
        let constraintsByRoot: [[Constraint]]

        init(_ composition: Composition, indices: [String: Int]) {
            let nodes = composition.nodes
            boneParents = SkeletonSolver.boneParents(of: composition, indices: indices)
            bones = nodes.indices.filter { nodes[$0].kind == .bone || nodes[$0].bone != nil }
            flags = nodes.map { $0.bone ?? BoneInheritance() }
            var constraintsByRoot = [[Constraint]](repeating: [], count: nodes.count)
            for constraint in composition.ik {
                guard let bone = indices[constraint.bone] else { continue }
                var root = bone
                if constraint.chain > 0, let parent = nodes[bone].parent, let parentIndex = indices[parent] {
                    root = parentIndex
                }
                constraintsByRoot[root].append(Constraint(bone: bone, target: indices[constraint.target],
                                                          weight: constraint.weight,
                                                          bendPositive: constraint.bendPositive))
            }
            self.constraintsByRoot = constraintsByRoot
        }
    }

    private let nodes: [Node]
    private let plan: Plan
    private let frame: Frames
    private var globals: [BoneTransform?]
    private var matrices: [Matrix2D?]

    /// Each node's parent index when the parent is a bone (what the solver places a bone relative to), else `nil`.
    /// It does not change with time: callers that solve many frames work it out once (in a ``Plan``).
    static func boneParents(of composition: Composition, indices: [String: Int]) -> [Int?] {
        let nodes = composition.nodes
        func isBone(_ index: Int) -> Bool { nodes[index].kind == .bone || nodes[index].bone != nil }
        return nodes.map { node in
            guard let parent = node.parent, let parentIndex = indices[parent], isBone(parentIndex) else { return nil }
            return parentIndex
        }
    }

    /// World transforms (composition space) of every bone node, by node index (`nil` for other nodes).
    /// `plan`: the composition's ``Plan``.
    static func solve(_ composition: Composition, plan: Plan, at frame: Frames) -> [Matrix2D?] {
        var solver = SkeletonSolver(nodes: composition.nodes, plan: plan, frame: frame)
        for index in plan.bones {
            solver.place(index, depth: 0)
        }
        return solver.matrices
    }

    private init(nodes: [Node], plan: Plan, frame: Frames) {
        self.nodes = nodes
        self.plan = plan
        self.frame = frame
        globals = Array(repeating: nil, count: nodes.count)
        matrices = Array(repeating: nil, count: nodes.count)
    }

    private func parentIndex(of index: Int) -> Int? {
        plan.boneParents[index]
    }

    /// The bone's local components from its tracks.
    private func local(_ index: Int) -> BoneTransform {
        // Read through the array (not `let tracks = …`), which would copy the node's tracks.
        let position = nodes[index].tracks.position?.value(at: frame) ?? .zero
        let scale = nodes[index].tracks.scale?.value(at: frame) ?? .one
        return BoneTransform(
            x: position.x, y: position.y, rotation: (nodes[index].tracks.rotation?.value(at: frame) ?? Degrees(0)).radians,
            skew: (nodes[index].tracks.skew?.value(at: frame) ?? Degrees(0)).radians, scaleX: scale.x, scaleY: scale.y)
    }

    /// Places bone `index` (its parent first), running IK constraints rooted at it.
    private mutating func place(_ index: Int, depth: Int) {
        guard matrices[index] == nil, depth < 512 else { return }
        if let parent = parentIndex(of: index) { place(parent, depth: depth + 1) }
        computeOwn(index)
        for constraint in plan.constraintsByRoot[index] {
            guard let target = constraint.target else { continue }
            let bone = constraint.bone
            place(target, depth: depth + 1)
            if bone == index {
                solveOneBone(index, target: target, weight: constraint.weight)
            } else {
                computeOwn(bone)
                solveTwoBones(root: index, bone: bone, target: target, constraint: constraint)
            }
        }
    }

    /// The bone's own world transform from its parent's and its inheritance flags.
    private mutating func computeOwn(_ index: Int) {
        var global = local(index)
        let flags = plan.flags[index]
        guard let parent = parentIndex(of: index), let parentMatrix = matrices[parent],
            let parentGlobal = globals[parent]
        else {
            matrices[index] = global.matrix
            globals[index] = global
            return
        }
        if flags.inheritScale {
            if !flags.inheritRotation { global.rotation -= parentGlobal.rotation }
            var matrix = parentMatrix.concatenating(global.matrix)
            if !flags.inheritTranslation {
                matrix.tx = global.x
                matrix.ty = global.y
            }
            global.setFromMatrix(matrix)
            matrices[index] = matrix
            globals[index] = global
            return
        }
        if flags.inheritTranslation {
            let point = parentMatrix.apply(Vector2(x: global.x, y: global.y))
            global.x = point.x
            global.y = point.y
        }
        if flags.inheritRotation {
            var rotation = global.rotation + parentGlobal.rotation
            if parentGlobal.scaleX < 0 { rotation += .pi }
            if parentMatrix.determinant < 0 {
                rotation -= global.rotation * 2
                if flags.inheritReflection { global.skew += .pi }
            }
            global.rotation = rotation
        }
        matrices[index] = global.matrix
        globals[index] = global
    }

    /// One-bone IK: turns the bone towards the target.
    private mutating func solveOneBone(_ index: Int, target: Int, weight: Double) {
        guard var global = globals[index], let targetGlobal = globals[target] else { return }
        var radian = atan2(targetGlobal.y - global.y, targetGlobal.x - global.x)
        if global.scaleX < 0 { radian += .pi }
        global.rotation += (radian - global.rotation) * weight
        globals[index] = global
        matrices[index] = global.matrix
    }

    /// Two-bone IK: bends the root and the bone so the bone's tip reaches the target.
    private mutating func solveTwoBones(root: Int, bone: Int, target: Int, constraint: Plan.Constraint) {
        guard var parentGlobal = globals[root], var global = globals[bone], let matrix = matrices[bone],
            let ikGlobal = globals[target]
        else { return }
        let weight = constraint.weight
        let boneLength = plan.flags[bone].length
        let x = matrix.a * boneLength, y = matrix.b * boneLength
        let lLL = x * x + y * y
        let lL = lLL.squareRoot()
        var dX = global.x - parentGlobal.x, dY = global.y - parentGlobal.y
        let lPP = dX * dX + dY * dY
        let lP = lPP.squareRoot()
        let rawRadian = global.rotation
        let rawParentRadian = parentGlobal.rotation
        let rawRadianA = atan2(dY, dX)
        dX = ikGlobal.x - parentGlobal.x
        dY = ikGlobal.y - parentGlobal.y
        let lTT = dX * dX + dY * dY
        let lT = lTT.squareRoot()
        var radianA = 0.0
        if lL + lP <= lT || lT + lL <= lP || lT + lP <= lL {
            radianA = atan2(ikGlobal.y - parentGlobal.y, ikGlobal.x - parentGlobal.x)
            if !(lL + lP <= lT) && lP < lL { radianA += .pi }
        } else {
            let h = (lPP - lLL + lTT) / (2 * lTT)
            let r = (lPP - h * h * lTT).squareRoot() / lT
            let hX = parentGlobal.x + dX * h, hY = parentGlobal.y + dY * h
            let rX = -dY * r, rY = dX * r
            var mirrored = false
            if let grandparent = parentIndex(of: root), let m = matrices[grandparent] { mirrored = m.determinant < 0 }
            if mirrored != constraint.bendPositive {
                global.x = hX - rX
                global.y = hY - rY
            } else {
                global.x = hX + rX
                global.y = hY + rY
            }
            radianA = atan2(global.y - parentGlobal.y, global.x - parentGlobal.x)
        }
        let dR = BoneTransform.normalized(radianA - rawRadianA)
        parentGlobal.rotation = rawParentRadian + dR * weight
        globals[root] = parentGlobal
        matrices[root] = parentGlobal.matrix
        let currentRadianA = rawRadianA + dR * weight
        global.x = parentGlobal.x + cos(currentRadianA) * lP
        global.y = parentGlobal.y + sin(currentRadianA) * lP
        var radianB = atan2(ikGlobal.y - global.y, ikGlobal.x - global.x)
        if global.scaleX < 0 { radianB += .pi }
        global.rotation = parentGlobal.rotation + rawRadian - rawParentRadian
            + BoneTransform.normalized(radianB - dR - rawRadian) * weight
        globals[bone] = global
        matrices[bone] = global.matrix
    }
}
