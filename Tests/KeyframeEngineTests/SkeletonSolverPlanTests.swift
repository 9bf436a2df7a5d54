import KeyframeEngine
import KeyframeModel
import XCTest

/// How the solver's per-composition plan resolves IK constraints: several constraints rooted at one bone run in the
/// composition's order, and a constraint whose bone or target names no node is skipped without disturbing the others.
extension SkeletonSolverTests {
    func testConstraintsOnOneBoneRunInTheCompositionsOrder() throws {
        // Target "down" is at 90° from the arm's origin, "back" at 180°; at full weight the last constraint wins.
        let nodes = [bone("root"), bone("arm", parent: "root", length: 10), bone("down", parent: "root", y: 10),
                     bone("back", parent: "root", x: -10)]
        let toDown = IKConstraint(name: "down", bone: "arm", target: "down", chain: 0)
        let toBack = IKConstraint(name: "back", bone: "arm", target: "back", chain: 0)
        assertMatrix(try world(document(nodes, ik: [toDown, toBack]), "arm"), -1, 0, 0, -1, 0, 0)
        assertMatrix(try world(document(nodes, ik: [toBack, toDown]), "arm"), 0, 1, -1, 0, 0, 0)
    }

    func testConstraintNamingNoNodeIsSkipped() throws {
        let nodes = [bone("root"), bone("arm", parent: "root", length: 10), bone("t", parent: "root", y: 10)]
        let noTarget = IKConstraint(name: "a", bone: "arm", target: "missing", chain: 0)
        let noBone = IKConstraint(name: "b", bone: "missing", target: "t", chain: 1)
        let real = IKConstraint(name: "c", bone: "arm", target: "t", chain: 0)
        // Alone, the broken constraints leave the arm at its own angle (0°); around a real one, it still turns 90°.
        assertMatrix(try world(document(nodes, ik: [noTarget, noBone]), "arm"), 1, 0, 0, 1, 0, 0)
        assertMatrix(try world(document(nodes, ik: [noTarget, real, noBone]), "arm"), 0, 1, -1, 0, 0, 0)
    }
}
