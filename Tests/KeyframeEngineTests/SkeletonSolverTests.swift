import KeyframeEngine
import KeyframeModel
import XCTest

/// Bone inheritance flags, IK and skinned meshes in the pose sampler, on hand-built skeletons whose answers follow
/// from geometry (positions and angles worked out by hand, not by the code under test).
final class SkeletonSolverTests: XCTestCase {
    /// A bone node with a constant local transform.
    func bone(_ name: String, parent: String? = nil, x: Double = 0, y: Double = 0, rotation: Double = 0,
              scale: Double = 1, length: Double = 0, inherit: BoneInheritance? = nil) -> Node {
        var tracks = NodeTracks()
        tracks.position = Track(constant: Vector2(x: x, y: y))
        tracks.rotation = Track(constant: Degrees(rotation))
        tracks.scale = Track(constant: Vector2(x: scale, y: scale))
        var flags = inherit ?? BoneInheritance()
        flags.length = length
        return Node(id: name, name: name, kind: .bone, parent: parent, tracks: tracks, bone: flags)
    }

    func document(_ nodes: [Node], ik: [IKConstraint] = [], meshes: [MeshGeometry] = []) -> Document {
        Document(
            name: "t", frameRate: FrameRate(24), source: Provenance(format: .dragonBones),
            assets: Assets(images: [AtlasImage(id: "i", path: "i.png", pixelSize: Size(width: 4, height: 4))],
                           sprites: [Sprite(id: "s", name: "s", image: "i", region: Rect(x: 0, y: 0, width: 4, height: 4),
                                            rotated: false, origin: .zero, size: Size(width: 4, height: 4))],
                           meshes: meshes),
            compositions: [Composition(id: "c", name: "c", duration: Frames(1), nodes: nodes, ik: ik)], root: "c",
            clips: [])
    }

    func world(_ document: Document, _ id: String) throws -> Matrix2D {
        let pose = PoseSampler(document: document).sample(composition: "c", frame: .zero, collectNodes: true)
        return try XCTUnwrap(pose.nodes.first { $0.path == "c/\(id)" }?.transform, "no node \(id)")
    }

    func near(_ actual: Double, _ expected: Double, tolerance: Double, _ message: String = "",
              file: StaticString = #filePath, line: UInt = #line) {
        XCTAssert(abs(actual - expected) <= tolerance, "\(actual) is not within \(tolerance) of \(expected) \(message)",
                  file: file, line: line)
    }

    func assertMatrix(_ m: Matrix2D, _ a: Double, _ b: Double, _ c: Double, _ d: Double, _ tx: Double, _ ty: Double,
                      file: StaticString = #filePath, line: UInt = #line) {
        for (actual, expected) in [(m.a, a), (m.b, b), (m.c, c), (m.d, d), (m.tx, tx), (m.ty, ty)] {
            near(actual, expected, tolerance: 1e-9, "\(m)", file: file, line: line)
        }
    }

    func testDefaultFlagsComposeLikeAnyNode() throws {
        // Parent turned 90° at (10, 0); the child 5 px along the parent's x axis lands at (10, 5), turned 90°.
        let d = document([bone("p", x: 10, rotation: 90), bone("c", parent: "p", x: 5)])
        assertMatrix(try world(d, "c"), 0, 1, -1, 0, 10, 5)
    }

    func testWithoutRotationInheritanceTheChildKeepsItsOwnAngle() throws {
        let flags = BoneInheritance(inheritRotation: false)
        let d = document([bone("p", x: 10, rotation: 90), bone("c", parent: "p", x: 5, inherit: flags)])
        // Still carried by the parent to (10, 5), but not turned.
        assertMatrix(try world(d, "c"), 1, 0, 0, 1, 10, 5)
    }

    func testWithoutScaleInheritanceTheChildIsMovedAndTurnedButNotScaled() throws {
        let flags = BoneInheritance(inheritScale: false)
        let d = document([bone("p", rotation: 90, scale: 2), bone("c", parent: "p", x: 5, inherit: flags)])
        // 5 px along the scaled, turned parent axis is (0, 10); the child is turned 90° at unit scale.
        assertMatrix(try world(d, "c"), 0, 1, -1, 0, 0, 10)
    }

    func testWithoutTranslationInheritanceTheChildStaysAtItsLocalPosition() throws {
        let flags = BoneInheritance(inheritTranslation: false)
        let d = document([bone("p", x: 50, y: 50, rotation: 90), bone("c", parent: "p", x: 5, inherit: flags)])
        assertMatrix(try world(d, "c"), 0, 1, -1, 0, 5, 0)
    }

    func testOneBoneIKPointsTheBoneAtItsTarget() throws {
        let d = document([bone("root"), bone("arm", parent: "root", length: 10), bone("t", parent: "root", y: 10)],
                         ik: [IKConstraint(name: "ik", bone: "arm", target: "t", chain: 0)])
        assertMatrix(try world(d, "arm"), 0, 1, -1, 0, 0, 0)
    }

    func testTwoBoneIKReachesTheTargetOnTheChosenSide() throws {
        // Upper arm at the origin, forearm 10 px further, each 10 px long; target at (10, 10). The elbow must be
        // 10 px from the shoulder and from the target: (10, 0) or (0, 10).
        for (bendPositive, elbow) in [(true, Vector2(x: 10, y: 0)), (false, Vector2(x: 0, y: 10))] {
            let d = document(
                [bone("root"), bone("upper", parent: "root", length: 10), bone("fore", parent: "upper", x: 10, length: 10),
                 bone("t", parent: "root", x: 10, y: 10)],
                ik: [IKConstraint(name: "ik", bone: "fore", target: "t", chain: 1, bendPositive: bendPositive)])
            let fore = try world(d, "fore")
            near(fore.tx, elbow.x, tolerance: 1e-9, "elbow x, bendPositive \(bendPositive)")
            near(fore.ty, elbow.y, tolerance: 1e-9, "elbow y, bendPositive \(bendPositive)")
            let tip = fore.apply(Vector2(x: 10, y: 0))
            near(tip.x, 10, tolerance: 1e-9, "tip x")
            near(tip.y, 10, tolerance: 1e-9, "tip y")
            let upper = try world(d, "upper")
            near(upper.apply(Vector2(x: 10, y: 0)).x, elbow.x, tolerance: 1e-9, "upper arm ends at the elbow")
        }
    }

    func testHalfIKWeightMixesTheAngles() throws {
        let d = document([bone("root"), bone("arm", parent: "root", length: 10), bone("t", parent: "root", y: 10)],
                         ik: [IKConstraint(name: "ik", bone: "arm", target: "t", chain: 0, weight: 0.5)])
        let m = try world(d, "arm")
        near(atan2(m.b, m.a) * 180 / .pi, 45, tolerance: 1e-9)
    }

    func testSkinnedMeshVerticesFollowTheirBones() throws {
        // Two bones 20 px apart; a vertex weighted half to each, 2 px below each bone's origin, lands half-way.
        let mesh = MeshGeometry(
            id: "m", sprite: "s", vertices: [.zero, Vector2(x: 1, y: 0), Vector2(x: 0, y: 1)],
            uvs: [.zero, Vector2(x: 1, y: 0), Vector2(x: 0, y: 1)], triangles: [0, 1, 2],
            weights: [
                [MeshGeometry.Influence(bone: "a", weight: 0.5, position: Vector2(x: 0, y: 2)),
                 MeshGeometry.Influence(bone: "b", weight: 0.5, position: Vector2(x: 0, y: 2))],
                [MeshGeometry.Influence(bone: "a", weight: 1, position: Vector2(x: 1, y: 0))],
                [MeshGeometry.Influence(bone: "b", weight: 1, position: Vector2(x: 1, y: 0))],
            ])
        var slot = Node(id: "slot", name: "slot", kind: .slot, parent: "a")
        slot.tracks.content = Track(constant: .mesh("m"))
        // b is turned 90°: its local (1, 0) points down.
        let d = document([bone("a"), bone("b", x: 20, rotation: 90), slot], meshes: [mesh])
        let pose = PoseSampler(document: d).sample(composition: "c", frame: .zero)
        let positions = try XCTUnwrap(pose.items.first?.mesh?.positions)
        // Vertex 0: a puts it at (0, 2), b (turned) at (18, 0); the average is (9, 1).
        XCTAssertEqual(positions.count, 3)
        near(positions[0].x, 9, tolerance: 1e-9)
        near(positions[0].y, 1, tolerance: 1e-9)
        near(positions[1].x, 1, tolerance: 1e-9)
        near(positions[2].x, 20, tolerance: 1e-9)
        near(positions[2].y, 1, tolerance: 1e-9)
        XCTAssertEqual(pose.items.first?.mesh?.triangles, [0, 1, 2])
    }

    func testDeformOffsetsMoveUnweightedVertices() throws {
        let mesh = MeshGeometry(id: "m", sprite: "s", vertices: [.zero, Vector2(x: 4, y: 0), Vector2(x: 0, y: 4)],
                                uvs: [.zero, Vector2(x: 1, y: 0), Vector2(x: 0, y: 1)], triangles: [0, 1, 2])
        var slot = Node(id: "slot", name: "slot", kind: .slot, parent: "a")
        slot.tracks.content = Track(constant: .mesh("m"))
        slot.tracks.deform = Track([
            Keyframe(frame: .zero, value: MeshDeform(mesh: "m", offsets: [0, 0, 0, 0, 0, 0]), easing: .linear),
            Keyframe(frame: Frames(10), value: MeshDeform(mesh: "m", offsets: [2, 0, 0, 0, 0, -4])),
        ])
        var d = document([bone("a", x: 100), slot], meshes: [mesh])
        d.compositions[0].duration = Frames(11)
        let positions = try XCTUnwrap(PoseSampler(document: d).sample(composition: "c", frame: Frames(5)).items.first?.mesh?.positions)
        // Half-way: vertex 0 moved by (1, 0), vertex 2 by (0, −2), all 100 px to the right.
        near(positions[0].x, 101, tolerance: 1e-9)
        near(positions[2].y, 2, tolerance: 1e-9)
        // Offsets for another mesh are ignored.
        d.compositions[0].nodes[1].tracks.deform = Track(constant: MeshDeform(mesh: "other", offsets: [9, 9, 9, 9, 9, 9]))
        let plain = try XCTUnwrap(PoseSampler(document: d).sample(composition: "c", frame: Frames(5)).items.first?.mesh?.positions)
        near(plain[0].x, 100, tolerance: 1e-9)
    }
}
