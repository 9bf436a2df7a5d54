import KeyframeModel

/// Places a ``MeshGeometry``'s vertices in root coordinates: unweighted vertices through the showing node's world
/// transform, weighted vertices through their bones' world transforms, with deform offsets added first.
enum MeshPlacement {
    /// The mesh's vertices in root coordinates.
    ///
    /// - Parameters:
    ///   - node: the world transform of the node that shows the mesh.
    ///   - bones: world transforms of the composition's bone nodes, by node id (for weighted meshes).
    ///   - deform: offsets for this mesh, or `nil`.
    static func positions(_ mesh: MeshGeometry, node: Matrix2D, bones: [String: Matrix2D], deform: MeshDeform?)
        -> [Vector2]
    {
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
        for influences in weights {
            var x = 0.0, y = 0.0
            for influence in influences {
                var point = influence.position
                if let offsets {
                    point.x += offsets[k]
                    point.y += offsets[k + 1]
                }
                k += 2
                let placed = (bones[influence.bone] ?? node).apply(point)
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
