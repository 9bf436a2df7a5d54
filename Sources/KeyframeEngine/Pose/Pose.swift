import KeyframeModel

/// Everything visible at one moment: sprites to draw back to front, with world transforms, colours, blend modes
/// and masks, plus the resolved state of every node that was visited.
public struct Pose: Sendable, Equatable {
    /// One sprite to draw.
    public struct Item: Sendable, Equatable {
        /// The sprite's id in the document's assets.
        public var sprite: String
        /// Sprite-local (upright picture, document pixels, origin applied) to root coordinates.
        public var transform: Matrix2D
        /// The accumulated colour transform, opacity folded into the alpha multiplier.
        public var color: ColorTransform
        /// The blend mode of the nearest node that sets one.
        public var blendMode: BlendMode
        /// Indices into ``Pose/masks``: the item is visible only where every one of them has coverage.
        public var masks: [Int]
        /// Where the item comes from: composition instance path and node id, for people and traces.
        public var path: String
        /// A deformed textured mesh to draw instead of the sprite's rectangle (DragonBones meshes); `nil` for plain
        /// sprites. Its positions are already in root coordinates, so ``transform`` does not apply to it.
        public var mesh: Mesh? = nil
        /// The innermost filter group the item belongs to, with its colour and blend mode inside that group; `nil`
        /// when no filtered node shows it.
        public var inGroup: GroupMember? = nil

        public init(sprite: String, transform: Matrix2D, color: ColorTransform, blendMode: BlendMode, masks: [Int],
                    path: String, mesh: Mesh? = nil, inGroup: GroupMember? = nil) {
            self.sprite = sprite
            self.transform = transform
            self.color = color
            self.blendMode = blendMode
            self.masks = masks
            self.path = path
            self.mesh = mesh
            self.inGroup = inGroup
        }
    }

    /// What a node with filters, or with a blend mode of its own that shows a nested composition, shows, drawn as
    /// one picture that its filters (if any) change before it is composited (Flash draws a filtered display object
    /// into a bitmap of its own, filters it, then composites it with the object's colour transform and blend mode;
    /// a blended one is blended as a whole).
    ///
    /// The group's items are consecutive in ``Pose/items``; groups nest (``parent``).
    public struct FilterGroup: Sendable, Equatable {
        /// The filters, applied in order.
        public var filters: [Filter]
        /// The colour transform and blend mode the filtered picture is composited with, relative to the enclosing
        /// group (to the root when ``parent`` is `nil`).
        public var color: ColorTransform
        public var blendMode: BlendMode
        /// Indices into ``Pose/masks`` that clip the filtered picture (the items' own masks begin with these).
        public var masks: [Int]
        /// The enclosing group, or `nil`.
        public var parent: Int?
        /// The filtered node, for people and traces.
        public var path: String

        public init(filters: [Filter], color: ColorTransform, blendMode: BlendMode, masks: [Int], parent: Int?,
                    path: String) {
            self.filters = filters
            self.color = color
            self.blendMode = blendMode
            self.masks = masks
            self.parent = parent
            self.path = path
        }
    }

    /// An item's place in its innermost filter group.
    public struct GroupMember: Sendable, Equatable {
        /// Index into ``Pose/filterGroups``.
        public var group: Int
        /// The item's colour transform and blend mode within the group's picture (``Item/color`` and
        /// ``Item/blendMode`` are the accumulated ones, as if there were no group).
        public var color: ColorTransform
        public var blendMode: BlendMode

        public init(group: Int, color: ColorTransform, blendMode: BlendMode) {
            self.group = group
            self.color = color
            self.blendMode = blendMode
        }
    }

    /// Triangles textured from a sprite, with vertices already placed in root coordinates.
    public struct Mesh: Sendable, Equatable {
        /// Vertex positions in root coordinates (document pixels).
        public var positions: [Vector2]
        /// Texture coordinates per vertex, normalized over the sprite's upright picture: (0, 0) is its top-left,
        /// (1, 1) its bottom-right. The renderer maps them through the sprite's region and rotation.
        public var uvs: [Vector2]
        /// Vertex indices, three per triangle.
        public var triangles: [Int]

        public init(positions: [Vector2], uvs: [Vector2], triangles: [Int]) {
            self.positions = positions
            self.uvs = uvs
            self.triangles = triangles
        }
    }

    /// One node's resolved state.
    public struct NodeState: Sendable, Equatable {
        public var path: String
        public var transform: Matrix2D
        public var color: ColorTransform
        public var visible: Bool
        public var content: NodeContent
        /// The nested composition's frame, when the content is a composition.
        public var childFrame: Double?
        /// The source's bitmap filters on the node at this frame (kept as data: Keyframe draws none; exporters report
        /// what they cannot write).
        public var filters: [Filter] = []
    }

    /// A node's resolved transform and colour, without its path or content: what
    /// ``PoseSampler/nodeValues(composition:frame:)`` gives for each of a composition's own nodes.
    public struct NodeValues: Sendable, Equatable {
        public var transform: Matrix2D
        public var color: ColorTransform

        public init(transform: Matrix2D, color: ColorTransform) {
            self.transform = transform
            self.color = color
        }
    }

    /// Sprites back to front.
    public var items: [Item] = []
    /// Mask shapes: each is a list of sprites whose coverage (alpha) forms the mask.
    public var masks: [[Item]] = []
    /// Filter groups, outer groups before the groups inside them (``Item/inGroup``).
    public var filterGroups: [FilterGroup] = []
    /// Every visited node's state, in visiting order (only when requested).
    public var nodes: [NodeState] = []

    public init() {}
}
