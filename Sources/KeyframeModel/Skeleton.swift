import KeyframeJSON

/// How a skeleton bone combines its local transform with its parent's (DragonBones bone flags).
///
/// With every flag set (the default) a bone's world transform is `W(parent) · M(bone)`, the rule of §4.4. A cleared
/// flag drops that part of the parent: translation (`inheritTranslation`), rotation (`inheritRotation`), scale and
/// skew (`inheritScale`), or mirroring (`inheritReflection`, which only matters when scale is not inherited).
public struct BoneInheritance: Sendable, Hashable {
    /// The bone's length in px along its local x axis (used by two-bone IK).
    public var length: Double
    /// Whether the parent's transform moves the bone's origin.
    public var inheritTranslation: Bool
    /// Whether the parent's rotation turns the bone.
    public var inheritRotation: Bool
    /// Whether the parent's scale and skew apply to the bone.
    public var inheritScale: Bool
    /// Whether a mirrored parent mirrors the bone (when scale is not inherited).
    public var inheritReflection: Bool

    public init(length: Double = 0, inheritTranslation: Bool = true, inheritRotation: Bool = true,
                inheritScale: Bool = true, inheritReflection: Bool = true) {
        self.length = length
        self.inheritTranslation = inheritTranslation
        self.inheritRotation = inheritRotation
        self.inheritScale = inheritScale
        self.inheritReflection = inheritReflection
    }

    /// Whether all four flags are set, so the bone composes like any other node.
    public var inheritsEverything: Bool {
        inheritTranslation && inheritRotation && inheritScale && inheritReflection
    }
}

extension BoneInheritance: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            length: try json.decodeIfPresent("length") ?? 0,
            inheritTranslation: try json.decodeIfPresent("inheritTranslation") ?? true,
            inheritRotation: try json.decodeIfPresent("inheritRotation") ?? true,
            inheritScale: try json.decodeIfPresent("inheritScale") ?? true,
            inheritReflection: try json.decodeIfPresent("inheritReflection") ?? true)
    }
    public var json: JSONValue {
        ["length": .number(length), "inheritTranslation": .bool(inheritTranslation),
         "inheritRotation": .bool(inheritRotation), "inheritScale": .bool(inheritScale),
         "inheritReflection": .bool(inheritReflection)]
    }
}

/// An inverse-kinematics constraint: turns one bone (or a bone and its parent) so that the chain points at a target.
///
/// Evaluated after the bones' own transforms, before their children (DragonBones `IKConstraint`): with `chain` 0 the
/// bone is rotated towards the target; with `chain` 1 the bone's parent and the bone bend so the bone's tip reaches
/// the target, bending the way `bendPositive` says. `weight` (0…1) mixes the solved angles with the animated ones.
public struct IKConstraint: Sendable, Hashable {
    /// The constraint's name.
    public var name: String
    /// The id of the constrained bone node.
    public var bone: String
    /// The id of the target bone node.
    public var target: String
    /// 0 for one bone, 1 for the bone and its parent.
    public var chain: Int
    /// Which way a two-bone chain bends.
    public var bendPositive: Bool
    /// How much of the solution is applied, 0…1.
    public var weight: Double

    public init(name: String, bone: String, target: String, chain: Int, bendPositive: Bool = true, weight: Double = 1) {
        self.name = name
        self.bone = bone
        self.target = target
        self.chain = chain
        self.bendPositive = bendPositive
        self.weight = weight
    }
}

extension IKConstraint: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            name: try json.decode("name"), bone: try json.decode("bone"), target: try json.decode("target"),
            chain: try json.decode("chain"), bendPositive: try json.decode("bendPositive"),
            weight: try json.decode("weight"))
    }
    public var json: JSONValue {
        ["name": .string(name), "bone": .string(bone), "target": .string(target), "chain": chain.json,
         "bendPositive": .bool(bendPositive), "weight": .number(weight)]
    }
}
