import KeyframeModel

/// Which mask each node of a composition belongs to or is masked by, resolved through node parents as the sampler
/// does: a node under a mask node (itself or an ancestor `isMask`) is part of that mask; otherwise its nearest
/// `maskedBy` (its own, else an ancestor's) masks it.
struct MaskStructure {
    /// Node index → the index of the mask node whose shape it is part of.
    var maskRoot: [Int: Int] = [:]
    /// Node index → the index of the mask node that masks it.
    var nearestMask: [Int: Int] = [:]

    init(_ composition: Composition) {
        var index: [String: Int] = [:]
        for (i, node) in composition.nodes.enumerated() where index[node.id] == nil { index[node.id] = i }
        for (i, node) in composition.nodes.enumerated() {
            var chain = [i]
            var parent = node.parent
            while let id = parent, let p = index[id], chain.count <= composition.nodes.count {
                chain.append(p)
                parent = composition.nodes[p].parent
            }
            if let root = chain.first(where: { composition.nodes[$0].isMask }) {
                maskRoot[i] = root
            } else if let masked = chain.first(where: { composition.nodes[$0].maskedBy != nil }),
                let mask = composition.nodes[masked].maskedBy.flatMap({ index[$0] }) {
                nearestMask[i] = mask
            }
        }
    }
}
