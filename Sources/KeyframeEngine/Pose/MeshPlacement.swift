import KeyframeModel

/// Places a ``MeshGeometry``'s vertices in root coordinates: unweighted vertices through the showing node's world
/// transform, weighted vertices through their bones' world transforms, with deform offsets added first.
enum MeshPlacement {
    /// The bones a weighted mesh's influences go through, looked up by index (a name lookup per influence and frame
    /// cost more than placing the vertex).
    struct Bones {
        /// World transforms by node index (`nil`: not a bone, or not placed at this frame).
        var transforms: [Matrix2D?] = []
        /// Per influence of the mesh, in the order of its weights, flattened: the node index of its bone, or −1.
        var influenceBones: [Int] = []
    }

    /// Per influence of `mesh` (flattened, in the order of its weights), the index of its bone in `boneIndex`, or
    /// −1 when no bone node has that id; empty for an unweighted mesh.
    static func influenceBones(of mesh: MeshGeometry, boneIndex: [String: Int]) -> [Int] {
        guard let weights = mesh.weights else { return [] }
        var result: [Int] = []
        result.reserveCapacity(weights.reduce(0) { $0 + $1.count })
        for influences in weights {
            for influence in influences { result.append(boneIndex[influence.bone] ?? -1) }
        }
        return result
    }

    /// The mesh's vertices in root coordinates.
    ///
    /// - Parameters:
    ///   - node: the world transform of the node that shows the mesh.
    ///   - bones: world transforms of the composition's bone nodes (for weighted meshes): ``BoneWorld/transforms``
    ///     by node index, and each influence's bone node index, in the order of `mesh.weights`, flattened (``Bones``).
    ///     A vertex's influence whose bone is not placed goes through `node`.
    ///   - deform: offsets for this mesh, or `nil`.
    static func positions(_ mesh: MeshGeometry, node: Matrix2D, bones: Bones, deform: MeshDeform?) -> [Vector2] {
        let offsets = deform.flatMap { $0.mesh == mesh.id && $0.offsets.count == mesh.deformValueCount ? $0.offsets : nil }
        guard let weights = mesh.weights else {
            return mesh.vertices.enumerated().map { index, vertex in
                var point = vertex
                if let offsets {
                    point.x += offsets[2 * index]
                    point.y += offsets[2 * index + 1]
                }
                return node.apply(point)
            }
        }
        var result: [Vector2] = []
        result.reserveCapacity(weights.count)
        var k = 0
        var n = 0
        for influences in weights {
            var x = 0.0, y = 0.0
            for influence in influences {
                var point = influence.position
                if let offsets {
                    point.x += offsets[k]
                    point.y += offsets[k + 1]
                }
                k += 2
                let bone = n < bones.influenceBones.count ? bones.influenceBones[n] : -1
                n += 1
                let placed = ((bone >= 0 && bone < bones.transforms.count ? bones.transforms[bone] : nil) ?? node)
                    .apply(point)
                x += placed.x * influence.weight
                y += placed.y * influence.weight
            }
            result.append(Vector2(x: x, y: y))
        }
        return result
    }
}

extension MeshDeform: Interpolatable {
    /// Offsets interpolated value by value; a change of mesh or length holds the first value.
    public func interpolated(to other: MeshDeform, at t: Double) -> MeshDeform {
        guard mesh == other.mesh, offsets.count == other.offsets.count else { return self }
        var values = offsets
        for index in values.indices { values[index] += (other.offsets[index] - values[index]) * t }
        return MeshDeform(mesh: mesh, offsets: values)
    }
}
