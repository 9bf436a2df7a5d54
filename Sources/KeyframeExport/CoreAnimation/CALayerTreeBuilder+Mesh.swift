import Foundation
import KeyframeEngine
import KeyframeModel

extension CALayerTreeBuilder {
    /// The vertices of the mesh node `node` of composition `id` at local frame `local`, in the composition's space
    /// (what `keyframe render` draws there), or `nil` when it shows none.
    mutating func meshPositions(_ id: String, node: String, local: Double) -> Pose.Mesh? {
        if let known = meshPoses[id]?[local] { return known["\(id)/\(node)"] }
        var found: [String: Pose.Mesh] = [:]
        for item in meshSampler?.sample(composition: id, frame: Frames(local)).items ?? [] {
            if let mesh = item.mesh, found[item.path] == nil { found[item.path] = mesh }
        }
        meshPoses[id, default: [:]][local] = found
        return found["\(id)/\(node)"]
    }

    /// The layers of the meshes `ids` a node shows, each hidden at the keys where `contents` (the node's content at
    /// each key of the plan) is another, or the node (`shown`) is not drawn.
    mutating func meshLayers(_ ids: [String], contents: [Keyframe<NodeContent>?], shown: [Bool], node: Node,
                             composition id: String, plan: Plan, nodeMatrices: [Matrix2D], path: String) -> [CALayerSpec] {
        var layers: [CALayerSpec] = []
        for meshID in ids {
            var hidden = Rows(width: 1, capacity: contents.count)
            for (i, keyframe) in contents.enumerated() {
                if case .mesh(let showing)? = keyframe?.value, showing == meshID, shown[i] {
                    hidden.append(0)
                } else {
                    hidden.append(1)
                }
            }
            guard var mesh = meshLayer(meshID, node: node, composition: id, plan: plan, nodeMatrices: nodeMatrices,
                                       hidden: hidden, path: path)
            else { continue }
            mesh.isHidden = hidden[0, 0] != 0
            mesh.animation = group(discrete("hidden", .bool, hidden, plan), plan)
            layers.append(mesh)
        }
        return layers
    }

    /// The layer of a mesh a node shows (`mesh:<id>`, in the node layer's space): one sublayer per triangle (named
    /// after the sprite, in the mesh's triangle order) showing
    /// the sprite's atlas region (`contents`, `contentsRect`, as a sprite layer does) under a `transform` keyed at
    /// every key of the plan — the triangle's affine map (``MeshTriangles``) relative to the node's matrix — and
    /// masked by a shape layer holding the triangle in the layer's bounds space, its interior edges pushed out
    /// about one document pixel against seams. `hidden` says, per key, where the node does not show this mesh.
    mutating func meshLayer(_ meshID: String, node: Node, composition id: String, plan: Plan,
                            nodeMatrices: [Matrix2D], hidden: Rows, path: String) -> CALayerSpec? {
        guard let geometry = document.assets.meshes.first(where: { $0.id == meshID }),
            let sprite = sprites[geometry.sprite], let image = images[sprite.image],
            image.pixelSize.width > 0, image.pixelSize.height > 0
        else { return nil }
        usedImages.insert(image.id)
        var container = CALayerSpec(name: "mesh:\(meshID)")
        container.anchorPoint = [0, 0]
        let poses = plan.keys.indices.map { k in
            hidden[k, 0] != 0 ? nil : meshPositions(id, node: node.id, local: plan.keys[k].local)
        }
        let cut = MeshTriangles(uvs: geometry.uvs, indices: geometry.triangles, width: sprite.size.width,
                                height: sprite.size.height)
        if cut.skipped > 0 {
            diagnostics.add(Diagnostic(
                severity: .info, code: "ca-mesh-triangles",
                message: "clip \"\(clipName)\": \(cut.skipped) triangles of the mesh shown by \(path)/\(node.id) have no "
                    + "area in the picture or name missing vertices; they are left out, as keyframe render draws nothing there"))
        }
        // Bounds space → upright sprite space: a region stored turned 90° clockwise is shown as stored and turned back.
        let bounds = sprite.rotated ? [0, 0, sprite.size.height, sprite.size.width] : [0, 0, sprite.size.width, sprite.size.height]
        let upright = sprite.rotated
            ? Matrix2D(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: sprite.size.height) : Matrix2D.identity
        let toBounds = upright.inverted ?? .identity
        let r = sprite.region
        let contentsRect = [r.x / image.pixelSize.width, r.y / image.pixelSize.height,
                            r.width / image.pixelSize.width, r.height / image.pixelSize.height]
        let zero = Matrix2D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
        for triangle in cut.triangles {
            // Upright sprite space → composition space at each key (hidden keys repeat the nearest shown value,
            // never seen), and the same relative to the node's matrix.
            let shown = poses.map { $0.map { MeshTriangles.affine(triangle, positions: $0.positions) } }
            let firstShown = shown.first(where: { $0 != nil }) ?? nil
            var placed: [Matrix2D] = []
            var relative = Rows(width: 16, capacity: plan.keys.count)
            for k in plan.keys.indices {
                let affine = shown[k] ?? placed.last ?? firstShown ?? zero
                placed.append(affine)
                relative.append(transform: (nodeMatrices[k].inverted.map { $0.concatenating(affine) } ?? zero)
                    .concatenating(upright))
            }
            var dilation = [0.0, 0.0, 0.0]
            for e in 0..<3 where triangle.interior[e] {
                for m in shown.compactMap({ $0 }) {
                    dilation[e] = max(dilation[e], MeshTriangles.pictureDistance(
                        triangle, edge: e, toDevice: m, devicePixels: MeshTriangles.seamPixels))
                }
            }
            var layer = CALayerSpec(name: geometry.sprite)
            layer.anchorPoint = [0, 0]
            layer.bounds = bounds
            layer.contents = image.id
            layer.contentsRect = contentsRect
            layer.transform = relative.row(0)
            layer.animation = group(linear("transform", .transform, relative, plan), plan)
            var mask = CALayerSpec(name: "triangle")
            mask.anchorPoint = [0, 0]
            mask.bounds = bounds
            mask.path = MeshTriangles.mask(triangle, dilation: dilation).map(toBounds.apply).flatMap { [$0.x, $0.y] }
            layer.mask = CALayerSpecBox(mask)
            container.sublayers.append(layer)
        }
        return container
    }
}
