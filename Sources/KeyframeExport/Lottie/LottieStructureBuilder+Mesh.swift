import Foundation
import KeyframeEngine
import KeyframeJSON
import KeyframeModel

extension LottieStructureBuilder {
    /// The mesh node `node` of composition `id` shows at local frame `local`, placed in the composition's own space
    /// (what `keyframe render` draws for it there), or `nil` when it shows none.
    mutating func meshPose(_ id: String, node: String, local: Double) -> Pose.Mesh? {
        if let known = meshPoses[id]?[local] { return known["\(id)/\(node)"] }
        var found: [String: Pose.Mesh] = [:]
        for item in sampler.sample(composition: id, frame: Frames(local)).items {
            if let mesh = item.mesh, found[item.path] == nil { found[item.path] = mesh }
        }
        meshPoses[id, default: [:]][local] = found
        return found["\(id)/\(node)"]
    }

    /// The layers drawing one run of a mesh: per triangle a precomp layer showing the mesh's picture (one precomp
    /// asset per picture), clipped by the triangle as a mask in picture pixels (interior edges pushed out about a
    /// device pixel against seams, ``MeshTriangles``), under the affine map that places the triangle at each key —
    /// sampled per key and reduced like every other sampled transform (R·S·R through a parent null in `portable`,
    /// `sk` in `full`). Returns the triangle layers back to front and the parent nulls.
    mutating func meshLayers(composition id: String, node: String, mesh meshID: String, bake: ColorTransform?,
                             keys: [Key], span: [Int], base: Matrix2D, outer: Double, opacity: [[Double]],
                             name: String, ip: Double, op: Double, path: String, nextIndex: inout Int)
        throws -> (content: [JSONObject], nulls: [JSONObject])
    {
        guard let geometry = document.assets.meshes.first(where: { $0.id == meshID }) else { return ([], []) }
        let picture = try images.entry(sprite: geometry.sprite, color: bake, node: "\(path)/\(node)")
        if bake != nil { context.report.bakedTints += 1 }
        let assetID = meshAsset(picture: picture.id, width: picture.width, height: picture.height)
        let poses = span.map { meshPose(id, node: node, local: keys[$0].local) }
        let uvs = poses.first(where: { $0 != nil })??.uvs ?? geometry.uvs
        let indices = poses.first(where: { $0 != nil })??.triangles ?? geometry.triangles
        let cut = MeshTriangles(uvs: uvs, indices: indices, width: Double(picture.width), height: Double(picture.height))
        if cut.skipped > 0 {
            context.warn("lottie-mesh-triangles",
                         "\(cut.skipped) triangles of the mesh shown by \(path)/\(node) have no area in the picture "
                             + "or name missing vertices; they are left out, as keyframe render draws nothing there",
                         node: "\(path)/\(node)", approximated: true)
        }
        // Where the mesh holds still over a frame (a stepped timeline), the keys hold.
        var held: [Bool] = []
        for i in 0..<max(span.count - 1, 0) {
            let a = keys[span[i]], b = keys[span[i + 1]]
            let step = b.local - a.local
            guard abs(abs(step) - abs(b.time - a.time)) < 1e-9, step != 0 else {
                held.append(true)
                continue
            }
            if poses[i]?.positions == poses[i + 1]?.positions {
                held.append(true)
                continue
            }
            held.append(meshPose(id, node: node, local: (a.local + b.local) / 2)?.positions == poses[i]?.positions)
        }
        let zero = Matrix2D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0)
        let device = Matrix2D(a: outer, b: 0, c: 0, d: outer, tx: 0, ty: 0)
        var content: [JSONObject] = []
        var nulls: [JSONObject] = []
        let opacityTolerance = LottieTolerance.opacityPercent / Double(chain)
        for (t, triangle) in cut.triangles.enumerated() {
            let matrices = poses.map { pose in
                pose.map { base.concatenating(MeshTriangles.affine(triangle, positions: $0.positions)) } ?? zero
            }
            var dilation = [0.0, 0.0, 0.0]
            for e in 0..<3 where triangle.interior[e] {
                for m in matrices {
                    dilation[e] = max(dilation[e], MeshTriangles.pictureDistance(
                        triangle, edge: e, toDevice: device.concatenating(m), devicePixels: MeshTriangles.seamPixels))
                }
            }
            var extent = 1.0
            for m in matrices {
                for p in triangle.picture {
                    let q = m.apply(p)
                    extent = max(extent, hypot(q.x - m.tx, q.y - m.ty))
                }
            }
            let written = transformLayers(
                matrices: matrices, keys: keys, indices: span, held: held, outer: outer, parentNorm: 1, extent: extent,
                name: "\(name) triangle \(t)", ip: ip, op: op, parent: nil, nextIndex: &nextIndex, image: false)
            for (position, layer) in written.layers.enumerated() {
                var json = layer
                guard position == written.layers.count - 1 else {
                    json["ty"] = 3
                    nulls.append(json)
                    continue
                }
                json["ty"] = 0
                json["refId"] = .string(assetID)
                json["w"] = .number(Double(picture.width))
                json["h"] = .number(Double(picture.height))
                json["hasMask"] = true
                json["masksProperties"] = [Self.maskJSON(MeshTriangles.mask(triangle, dilation: dilation))]
                var ks = json["ks"]?.objectValue ?? [:]
                ks["o"] = LottieKeyframeReducer(tolerance: [opacityTolerance])
                    .property(opacity, held: held, times: span.map { keys[$0].time }, scalar: true)
                json["ks"] = .object(ks)
                content.append(json)
            }
            context.report.meshTriangles += 1
        }
        context.report.masks += cut.triangles.count
        return (content, nulls)
    }

    /// The precomp asset holding picture `pictureID` at its origin, made once per picture and clip.
    private mutating func meshAsset(picture pictureID: String, width: Int, height: Int) -> String {
        if let known = meshAssets[pictureID] { return known }
        let id = "mesh_\(assets.count)"
        meshAssets[pictureID] = id
        // rlottie 0.1 snaps a translation-only image to whole pixels; `portable` scales it a millionth below 1.
        let scale = settings.profile == .portable ? 100 * LottieClipBuilder.unitScale : 100
        let image: JSONObject = [
            "ddd": 0, "ty": 2, "ind": 1, "nm": .string(pictureID), "refId": .string(pictureID), "sr": 1, "ao": 0,
            "ip": 0, "op": .number(Self.meshAssetOutPoint), "st": 0, "bm": 0,
            "ks": .object([
                "a": .object(["a": 0, "k": [0, 0]]), "p": .object(["a": 0, "k": [0, 0]]),
                "s": .object(["a": 0, "k": [.number(scale), .number(scale)]]), "r": .object(["a": 0, "k": 0]),
                "o": .object(["a": 0, "k": 100]),
            ]),
        ]
        assets.append(.object(["id": .string(id), "nm": .string("\(pictureID) (mesh)"), "layers": [.object(image)]]))
        return id
    }

    /// The out point of the picture inside a mesh precomp: past any frame a timeline can have (100,000 frames).
    static let meshAssetOutPoint = 100_000.0

    /// A fixed closed polygon as an add mask (`x` written: lottie-web reads it unconditionally).
    static func maskJSON(_ points: [Vector2]) -> JSONValue {
        let zero: JSONValue = [0, 0]
        let path: JSONObject = [
            "c": true,
            "v": .array(points.map { [.number(LottieKeyframeReducer.clean($0.x)), .number(LottieKeyframeReducer.clean($0.y))] }),
            "i": .array(points.map { _ in zero }), "o": .array(points.map { _ in zero }),
        ]
        return .object(["mode": "a", "inv": false, "pt": .object(["a": 0, "k": .object(path)]),
                        "o": .object(["a": 0, "k": 100]), "x": .object(["a": 0, "k": 0]), "nm": "mask"])
    }
}
