import KeyframeJSON

/// A normalized keyframe document: the one model that every importer produces and every consumer reads.
///
/// Units are explicit: times in ``Frames`` at ``frameRate``, lengths in document pixels (y down), angles in
/// ``Degrees``, colour offsets in 8-bit channel units. The JSON form is versioned by ``schemaVersion``; see
/// `docs/format.md` and `docs/keyframe.schema.json`.
public struct Document: Sendable, Hashable {
    /// The value of the JSON `format` field.
    public static let formatName = "keyframe"
    /// The schema version this library writes and the newest it reads.
    public static let schemaVersion = 1

    /// The document's name (Animate document name, DragonBones data name, Flump library file).
    public var name: String
    /// Frames per second of every timeline in the document.
    public var frameRate: FrameRate
    /// The stage rectangle in root coordinates, when the source defines one.
    public var stage: Rect?
    /// Where the document came from.
    public var source: Provenance
    /// Images and sprite regions.
    public var assets: Assets
    /// Every timeline, the root first.
    public var compositions: [Composition]
    /// The id of the composition that is played at the top level.
    public var root: String
    /// Named ranges that can be played.
    public var clips: [Clip]
    /// What could not be represented exactly.
    public var diagnostics: [Diagnostic]

    public init(name: String, frameRate: FrameRate, stage: Rect? = nil, source: Provenance, assets: Assets,
                compositions: [Composition], root: String, clips: [Clip], diagnostics: [Diagnostic] = []) {
        self.name = name
        self.frameRate = frameRate
        self.stage = stage
        self.source = source
        self.assets = assets
        self.compositions = compositions
        self.root = root
        self.clips = clips
        self.diagnostics = diagnostics
    }

    /// The composition with `id`.
    public func composition(_ id: String) -> Composition? { compositions.first { $0.id == id } }

    /// The clip named `name`.
    public func clip(named name: String) -> Clip? { clips.first { $0.name == name } }

    /// The total number of nodes over all compositions.
    public var nodeCount: Int { compositions.reduce(0) { $0 + $1.nodes.count } }

    /// The total number of tracks over all nodes.
    public var trackCount: Int { compositions.reduce(0) { $0 + $1.nodes.reduce(0) { $0 + $1.tracks.count } } }

    /// The total number of keyframes over all tracks.
    public var keyframeCount: Int {
        compositions.reduce(0) { $0 + $1.nodes.reduce(0) { $0 + $1.tracks.keyframeCount } }
    }
}

extension Document: JSONRepresentable {
    public init(json: JSONCursor) throws(JSONSchemaError) {
        self.init(
            name: try json.decode("name"),
            frameRate: FrameRate(try json.decode("frameRate")),
            stage: try json.decodeIfPresent("stage"),
            source: try json.decode("source"),
            assets: try json.decode("assets"),
            compositions: try json.decode("compositions"),
            root: try json.decode("root"),
            clips: try json.decode("clips"),
            diagnostics: try json.decodeIfPresent("diagnostics") ?? [])
    }

    public var json: JSONValue {
        var object: JSONObject = [
            "format": .string(Document.formatName),
            "schemaVersion": .number(Double(Document.schemaVersion)),
            "units": [
                "time": "frames", "frameRate": "framesPerSecond", "length": "pixels", "angle": "degrees",
                "colorOffset": "8-bit channel units (-255...255)", "yAxis": "down",
            ],
            "name": .string(name),
            "frameRate": .number(frameRate.framesPerSecond),
            "source": source.json,
            "assets": assets.json,
            "compositions": compositions.json,
            "root": .string(root),
            "clips": clips.json,
            "diagnostics": diagnostics.json,
        ]
        object.setIfPresent("stage", stage)
        return .object(object)
    }
}

extension Document {
    /// Reads a normalized document from JSON bytes: checks `format` and `schemaVersion` first, then the whole
    /// shape, then references (see ``validate()``).
    public init(jsonBytes bytes: [UInt8]) throws(ModelError) {
        let value: JSONValue
        do { value = try JSONParser.parse(bytes) } catch { throw ModelError(.syntax(error)) }
        let cursor = JSONCursor(value)
        let format = value["format"]?.stringValue
        guard format == Document.formatName else { throw ModelError(.notAKeyframeDocument(found: format)) }
        do {
            let version = try cursor.member("schemaVersion").integer()
            guard version <= Document.schemaVersion, version >= 1 else {
                throw ModelError(.unsupportedSchemaVersion(found: version, supported: Document.schemaVersion))
            }
            try self.init(json: cursor)
        } catch let error as JSONSchemaError {
            throw ModelError(.schema(error))
        } catch let error as ModelError {
            throw error
        } catch {
            throw ModelError(.invalid(path: "$", message: "\(error)"))
        }
        try validate()
    }

    /// The document as deterministic JSON bytes: sorted keys, stable number text, trailing newline.
    public func jsonBytes() -> [UInt8] { JSONWriter.write(json) }

    /// Checks that every reference resolves and every value is in range.
    ///
    /// - Throws: ``ModelError`` of kind `invalid` naming the JSON path of the first problem.
    public func validate() throws(ModelError) {
        func fail(_ path: String, _ message: String) -> ModelError { ModelError(.invalid(path: path, message: message)) }
        guard frameRate.framesPerSecond > 0, frameRate.framesPerSecond.isFinite else {
            throw fail("frameRate", "must be a positive number")
        }
        let imageIDs = Set(assets.images.map(\.id))
        guard imageIDs.count == assets.images.count else { throw fail("assets.images", "duplicate image id") }
        guard Set(clips.map(\.name)).count == clips.count else { throw fail("clips", "duplicate clip name") }
        var spriteIDs = Set<String>()
        for (index, sprite) in assets.sprites.enumerated() {
            guard imageIDs.contains(sprite.image) else {
                throw fail("assets.sprites[\(index)].image", "unknown image \"\(sprite.image)\"")
            }
            guard spriteIDs.insert(sprite.id).inserted else {
                throw fail("assets.sprites[\(index)].id", "duplicate sprite id \"\(sprite.id)\"")
            }
        }
        var meshIDs = Set<String>()
        for (index, mesh) in assets.meshes.enumerated() {
            guard spriteIDs.contains(mesh.sprite) else {
                throw fail("assets.meshes[\(index)].sprite", "unknown sprite \"\(mesh.sprite)\"")
            }
            guard meshIDs.insert(mesh.id).inserted else {
                throw fail("assets.meshes[\(index)].id", "duplicate mesh id \"\(mesh.id)\"")
            }
        }
        let compositionIDs = Set(compositions.map(\.id))
        guard compositionIDs.count == compositions.count else { throw fail("compositions", "duplicate composition id") }
        guard compositionIDs.contains(root) else { throw fail("root", "unknown composition \"\(root)\"") }
        for (cIndex, composition) in compositions.enumerated() {
            guard composition.duration.value >= 0, composition.duration.value.isFinite else {
                throw fail("compositions[\(cIndex)].duration", "must be a non-negative number")
            }
            guard composition.nodes.count <= ModelLimits.maximumNodes else {
                throw fail("compositions[\(cIndex)].nodes", "\(composition.nodes.count) nodes, more than the "
                           + "\(ModelLimits.maximumNodes) a composition holds")
            }
            var seen = Set<String>()
            seen.reserveCapacity(composition.nodes.count)
            // Each node's depth below the composition (parents come first), for the nesting budget.
            var depths: [String: Int] = [:]
            let masks = Set(composition.nodes.lazy.filter(\.isMask).map(\.id))
            // By index: a node is large, and copying one retains each of its tracks.
            for nIndex in composition.nodes.indices {
                let node = composition.nodes[nIndex]
                // Named only when something is wrong (a valid document formats no path).
                var nodePath: String { "compositions[\(cIndex)].nodes[\(nIndex)]" }
                if let parent = node.parent, !seen.contains(parent) {
                    throw fail("\(nodePath).parent", "parent \"\(parent)\" is not an earlier node of \(composition.id)")
                }
                guard seen.insert(node.id).inserted else { throw fail("\(nodePath).id", "duplicate node id \"\(node.id)\"") }
                let depth = node.parent.map { (depths[$0] ?? 0) + 1 } ?? 0
                guard depth < ModelLimits.maximumNesting else {
                    throw fail("\(nodePath).parent", "node \"\(node.id)\" is nested more than "
                               + "\(ModelLimits.maximumNesting) nodes deep")
                }
                depths[node.id] = depth
                if let mask = node.maskedBy, !masks.contains(mask) {
                    throw fail("\(nodePath).maskedBy", "\"\(mask)\" is not a mask node of \(composition.id)")
                }
                for (kIndex, keyframe) in (node.tracks.content?.keyframes ?? []).enumerated() {
                    switch keyframe.value {
                    case .sprite(let id) where !spriteIDs.contains(id):
                        throw fail("\(nodePath).tracks.content[\(kIndex)].value.sprite", "unknown sprite \"\(id)\"")
                    case .mesh(let id) where !meshIDs.contains(id):
                        throw fail("\(nodePath).tracks.content[\(kIndex)].value.mesh", "unknown mesh \"\(id)\"")
                    case .composition(let instance) where !compositionIDs.contains(instance.composition):
                        throw fail("\(nodePath).tracks.content[\(kIndex)].value.composition",
                                   "unknown composition \"\(instance.composition)\"")
                    default: break
                    }
                }
            }
        }
        for (cIndex, composition) in compositions.enumerated() where !composition.ik.isEmpty {
            let boneIDs = Set(composition.nodes.lazy.filter { $0.kind == .bone }.map(\.id))
            for (index, constraint) in composition.ik.enumerated() {
                for (key, id) in [("bone", constraint.bone), ("target", constraint.target)] where !boneIDs.contains(id) {
                    throw fail("compositions[\(cIndex)].ik[\(index)].\(key)", "\"\(id)\" is not a bone node")
                }
            }
        }
        for (index, clip) in clips.enumerated() {
            guard compositionIDs.contains(clip.composition) else {
                throw fail("clips[\(index)].composition", "unknown composition \"\(clip.composition)\"")
            }
            guard clip.duration.value > 0, clip.start.value >= 0, clip.loopCount >= 0 else {
                throw fail("clips[\(index)]", "start must be ≥ 0, duration > 0 and loopCount ≥ 0")
            }
        }
    }
}
