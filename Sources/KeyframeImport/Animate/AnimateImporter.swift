import Foundation
import KeyframeFiles
import KeyframeJSON
import KeyframeModel

/// Converts an Adobe Animate texture-atlas export (official or BetterTextureAtlas) into a normalized document.
///
/// Rules chosen where runtimes differ (see `docs/format.md`):
/// - layers are listed front-most first in the file and become nodes back to front;
/// - an element slot (layer, element index) is one node; what it shows is its `content` track;
/// - graphic instances follow the parent's playhead (`FF + age` with LP/PO/SF and the reverse modes);
///   movie clips ignore FF/LP and run on their own clock from the moment they appear, and an instance is the same
///   one across keyframes while the same symbol stays at the same element index (Starling's rule, closest to Flash
///   Player);
/// - matrices are decomposed around the transformation point so that un-baked BTA tweens interpolate about it.
struct AnimateImporter {
    let folder: SourceFolder
    let animationFile: String
    var collector = DiagnosticCollector()
    /// Convert with the spritemap's recorded size when its image is missing (``ImportOptions/allowMissingImages``).
    var allowMissingImages = false

    private var symbolCursors: [String: (file: String, cursor: JSONCursor)] = [:]
    private var librarySymbols: [String: String] = [:]
    private var compositions: [String: Composition] = [:]
    private var compositionOrder: [String] = []
    private var visiting: [String] = []
    private var spritesByName: [String: Sprite] = [:]
    private var isBTA = false

    init(folder: SourceFolder, animationFile: String) {
        self.folder = folder
        self.animationFile = animationFile
    }

    mutating func run() throws(ImportError) -> Document {
        let root = try folder.readJSON(animationFile)
        let metadataFile = folder.fileExists("metadata.json") ? try folder.readJSON("metadata.json") : nil

        let (animation, variant) = try root.within(animationFile) { (cursor) throws(JSONSchemaError) in
            if let long = try cursor.optionalMember("ANIMATION") { return (long, "long") }
            return (try cursor.member("AN"), "optimized")
        }

        // Spritemaps: every spritemap[N].json beside Animation.json; sprite names are global across them.
        let spriteMaps = try readSpriteMaps()
        var images: [AtlasImage] = []
        var sprites: [Sprite] = []
        for map in spriteMaps {
            var imageFile: String
            do { imageFile = try folder.resolve(map.image) } catch {
                throw ImportError(.schema(file: map.file, JSONSchemaError(
                    path: map.imagePath, message: "the atlas image " + error.message(folder: "the export's folder"))))
            }
            // A renamed export: meta.image names a file that is not there, but the spritemap's own name is.
            if !folder.fileExists(imageFile), let own = AnimateImporter.ownImageName(of: map),
                let ownFile = try? folder.resolve(own), folder.fileExists(ownFile)
            {
                collector.add(Diagnostic(
                    severity: .warning, code: "atlas-image-renamed",
                    message: "\(map.image) (named by \(map.file) meta.image) is not in the export; \(own), the spritemap's own name, is used instead",
                    file: map.file, path: "meta.image"))
                imageFile = ownFile
            }
            var imageSize = folder.pngSize(imageFile)
            if imageSize == nil && allowMissingImages && !folder.fileExists(imageFile)
                && map.size.width > 0 && map.size.height > 0
            {
                collector.add(Diagnostic(
                    severity: .warning, code: "atlas-image-missing",
                    message: "\(map.image) not found; its size is taken from \(map.file) meta.size (rendering needs the image)",
                    file: map.file, path: "meta.image"))
                imageSize = map.size
            }
            guard let pixelSize = imageSize else {
                let exists = folder.fileExists(imageFile)
                let reason = folder.outsideReason(imageFile)
                    ?? (exists ? "atlas image is not a PNG" : "atlas image not found")
                let tried = exists ? nil : AnimateImporter.ownImageName(of: map)
                throw ImportError(.missingFile(
                    path: imageFile,
                    reason: "\(reason) (named by \(map.file) meta.image\(tried.map { "; \($0), the spritemap's own name, is not there either" } ?? ""))"))
            }
            if abs(pixelSize.width - map.size.width) > 0.5 || abs(pixelSize.height - map.size.height) > 0.5 {
                collector.add(Diagnostic(
                    severity: .warning, code: "atlas-size-mismatch",
                    message: "\(map.image) is \(Int(pixelSize.width))×\(Int(pixelSize.height)) px but \(map.file) says \(map.size.width)×\(map.size.height); using the image's size",
                    file: map.file, path: "meta.size"))
            }
            images.append(AtlasImage(id: map.image, path: imageFile, pixelSize: pixelSize, resolution: map.resolution))
            for entry in map.sprites {
                if spritesByName[entry.name] != nil {
                    collector.add(Diagnostic(severity: .warning, code: "duplicate-sprite",
                                             message: "sprite \"\(entry.name)\" is defined twice; the first is used",
                                             file: map.file, path: entry.path.description))
                    continue
                }
                let upright = entry.rotated
                    ? Size(width: entry.rect.height, height: entry.rect.width)
                    : Size(width: entry.rect.width, height: entry.rect.height)
                let sprite = Sprite(
                    id: entry.name, name: entry.name, image: map.image, region: entry.rect, rotated: entry.rotated,
                    origin: .zero,
                    size: Size(width: upright.width / map.resolution, height: upright.height / map.resolution))
                spritesByName[entry.name] = sprite
                sprites.append(sprite)
            }
        }

        // Version stamps: the spritemap's Animate build, BTA's exporter version.
        var btaVersion: String? = nil
        if let metadataFile {
            btaVersion = try metadataFile.within("metadata.json") { (c) throws(JSONSchemaError) in
                try c.optionalMember(anyOf: ["version", "V"])?.string()
            }
        }
        if btaVersion == nil {
            btaVersion = try root.within(animationFile) { (c) throws(JSONSchemaError) in
                try c.optionalMember(anyOf: ["metadata", "MD"])?.optionalMember(anyOf: ["V", "version"])?.string()
            }
        }
        let app = spriteMaps.first?.app
        isBTA = btaVersion != nil || (app?.contains("Better TA") ?? false) || folder.fileExists("metadata.json")

        // Frame rate: MD.FRT, metadata.json framerate, else 24.
        var frameRate = try root.within(animationFile) { (c) throws(JSONSchemaError) -> Double? in
            try c.optionalMember(.metadata)?.optionalMember(.frameRate)?.lenientNumber()
        }
        if frameRate == nil, let metadataFile {
            frameRate = try metadataFile.within("metadata.json") { (c) throws(JSONSchemaError) in
                try c.optionalMember(anyOf: ["framerate", "FRT", "frameRate"])?.lenientNumber()
            }
        }
        if frameRate == nil {
            collector.add(Diagnostic(severity: .info, code: "default-frame-rate",
                                     message: "no frame rate in the export; 24 fps assumed", file: animationFile))
        }
        let fps = frameRate ?? 24
        guard fps > 0, fps <= 1000 else {
            throw ImportError(.limitExceeded(file: animationFile, path: "MD.FRT", message: "frame rate \(fps) is out of range"))
        }

        // Symbol sources: the dictionary, and BTA's LIBRARY folder.
        try root.within(animationFile) { (c) throws(JSONSchemaError) in
            if let dictionary = try c.optionalMember(.symbolDictionary) {
                for symbol in try dictionary.member(.symbols).array() {
                    let name = try symbol.member(.symbolName).string()
                    symbolCursors[name] = (animationFile, symbol)
                }
            }
        }
        for file in folder.jsonFiles(under: "LIBRARY") {
            let name = String(file.dropFirst("LIBRARY/".count).dropLast(".json".count))
            if symbolCursors[name] == nil { librarySymbols[name] = file }
        }

        // The root timeline.
        let (documentName, rootName, rootTimeline) = try animation.within(animationFile) {
            (c) throws(JSONSchemaError) -> (String, String, JSONCursor) in
            let symbolName = try c.member(.symbolName).string()
            let name = try c.optionalMember(.name)?.string() ?? symbolName
            return (name, symbolName, try c.member(.timeline))
        }
        let stageInstance = try readStageInstance(animation)
        visiting = [rootName]
        let (rootComposition, rootLayers) = try buildComposition(id: rootName, timelineCursor: rootTimeline,
                                                                 file: animationFile)
        visiting = []
        register(rootComposition)
        // The stage instance, when it places, tints or filters the symbol: the document's root becomes a
        // composition that shows the symbol through it, as FlxAnimate draws the symbol through `AN.STI`.
        var documentRoot = rootComposition
        if let stageInstance, let wrapper = stageComposition(stageInstance, showing: rootComposition) {
            register(wrapper)
            documentRoot = wrapper
        }

        // Clips: the root timeline's frame labels; a single clip over everything when there are none.
        let clips = makeClips(rootComposition: documentRoot, timeline: rootLayers, name: documentName)

        var stage: Rect? = nil
        if let metadataFile {
            stage = try metadataFile.within("metadata.json") { (c) throws(JSONSchemaError) -> Rect? in
                guard let w = try c.optionalMember("width")?.lenientNumber(),
                    let h = try c.optionalMember("height")?.lenientNumber(), w > 0, h > 0
                else { return nil }
                return Rect(x: 0, y: 0, width: w, height: h)
            }
        }

        let ordered = [documentRoot.id] + compositionOrder.filter { $0 != documentRoot.id }
        var orderedCompositions = ordered.compactMap { compositions[$0] }
        KeepsTimeMarking.apply(to: &orderedCompositions)
        return Document(
            name: documentName, frameRate: FrameRate(fps), stage: stage,
            source: Provenance(
                format: isBTA ? .betterTextureAtlas : .animateAtlas, formatVersion: btaVersion, tool: app,
                toolVersion: spriteMaps.first?.version, variant: variant, files: folder.filesRead.sorted()),
            assets: Assets(images: images, sprites: sprites),
            compositions: orderedCompositions,
            root: documentRoot.id, clips: clips, diagnostics: collector.diagnostics)
    }

    // MARK: Stage instance

    /// `AN.STI.SI`: how the exported symbol sat on the stage (absent when it was exported from the library). One
    /// that cannot be read is left out with warning `stage-instance-unreadable`: the symbol is drawn as it is.
    private mutating func readStageInstance(_ animation: JSONCursor) throws(ImportError) -> AnimateSymbolInstance? {
        var reader = AnimateReader()
        let instance: AnimateSymbolInstance?
        do {
            guard let sti = try animation.optionalMember(.stageInstance),
                let symbol = try sti.optionalMember(.symbolInstance)
            else { return nil }
            instance = try reader.symbolInstance(symbol)
        } catch {
            collector.add(Diagnostic(
                severity: .warning, code: "stage-instance-unreadable",
                message: "the stage instance is not applied: \(error.message)", file: animationFile,
                path: error.path.description))
            return nil
        }
        for entry in reader.diagnostics {
            collector.add(Diagnostic(severity: .warning, code: entry.code, message: entry.message, file: animationFile,
                                     path: entry.path.description))
        }
        if let instance { reportUndrawnFilters(instance.filters, file: animationFile, path: instance.path) }
        return instance
    }

    /// The composition that shows `root` through the stage instance: one node, `stage`, with the instance's
    /// transform (about its transformation point), colour effect, filters and blend mode, showing `root` frame for
    /// frame (the instance's own first frame and loop are not applied: a clip chooses the frames). `nil` when the
    /// instance changes nothing (an identity matrix without effects).
    private mutating func stageComposition(_ instance: AnimateSymbolInstance, showing root: Composition)
        -> Composition?
    {
        let blend = instance.blend.map { blendMode($0, file: animationFile, path: instance.path) } ?? .normal
        let color = instance.color ?? .identity
        guard instance.matrix != .identity || color != .identity || !instance.filters.isEmpty || blend != .normal
        else { return nil }
        let components = AnimateImporter.cleaned(TransformComponents(matrix: instance.matrix,
                                                                     pivot: instance.transformationPoint ?? .zero))
        var tracks = NodeTracks()
        tracks.content = Track(constant: .composition(CompositionInstance(
            composition: root.id, firstFrame: .zero, loop: .loop, clock: .parent)))
        tracks.position = Track(constant: components.position)
        if components.scale != .one { tracks.scale = Track(constant: components.scale) }
        if components.rotation != Degrees(0) { tracks.rotation = Track(constant: components.rotation) }
        if components.skew != Degrees(0) { tracks.skew = Track(constant: components.skew) }
        if components.pivot != .zero { tracks.pivot = Track(constant: components.pivot) }
        if color != .identity { tracks.color = Track(constant: color) }
        if !instance.filters.isEmpty { tracks.filters = Track(constant: instance.filters) }
        if blend != .normal { tracks.blendMode = Track(constant: blend) }
        let name = instance.instanceName.flatMap { $0.isEmpty ? nil : $0 } ?? root.name
        var id = "\(root.id) (stage)"
        var counter = 2
        while compositions[id] != nil || symbolCursors[id] != nil || librarySymbols[id] != nil {
            id = "\(root.id) (stage \(counter))"
            counter += 1
        }
        return Composition(id: id, name: id, duration: root.duration,
                           nodes: [Node(id: "stage", name: name, kind: .instance, tracks: tracks)])
    }

    private mutating func register(_ composition: Composition) {
        if compositions[composition.id] == nil { compositionOrder.append(composition.id) }
        compositions[composition.id] = composition
    }

    // MARK: Spritemaps

    /// The image named after the spritemap file itself, with `meta.image`'s extension (`.png` without one); `nil`
    /// when that is `meta.image` itself.
    static func ownImageName(of map: AnimateSpriteMap) -> String? {
        let named = map.image.split(separator: "/").last.map(String.init) ?? map.image
        let fileExtension = named.lastIndex(of: ".").map { String(named[$0...]) } ?? ".png"
        let stem = map.file.hasSuffix(".json") ? String(map.file.dropLast(".json".count)) : map.file
        let own = stem + fileExtension
        return own == map.image ? nil : own
    }

    private func readSpriteMaps() throws(ImportError) -> [AnimateSpriteMap] {
        let candidates = folder.listFiles().compactMap { (name) -> (Int, String)? in
            guard name.hasPrefix("spritemap"), name.hasSuffix(".json") else { return nil }
            let digits = name.dropFirst("spritemap".count).dropLast(".json".count)
            if digits.isEmpty { return (0, name) }
            guard digits.allSatisfy(\.isNumber), let number = Int(digits) else { return nil }
            return (number, name)
        }.sorted { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 < $1.1) }
        guard !candidates.isEmpty else {
            throw ImportError(.missingFile(
                path: "spritemap1.json",
                reason: "no spritemap*.json beside \(animationFile): the atlas is missing"))
        }
        var maps: [AnimateSpriteMap] = []
        for (_, file) in candidates {
            let cursor = try folder.readJSON(file)
            maps.append(try cursor.within(file) { (c) throws(JSONSchemaError) in
                try AnimateReader().spriteMap(c, file: file)
            })
        }
        return maps
    }

    // MARK: Symbols

    /// Makes sure the symbol `name` is converted, detecting cycles.
    private mutating func requireSymbol(_ name: String, referencedFrom file: String, path: JSONPath,
                                        bitmap: (name: String, position: Vector2)?) throws(ImportError) -> String {
        if compositions[name] != nil { return name }
        if let index = visiting.firstIndex(of: name) {
            throw ImportError(.symbolCycle(Array(visiting[index...]) + [name]))
        }
        guard visiting.count < ModelLimits.maximumNesting else {
            throw ImportError(.limitExceeded(file: file, path: path.description,
                                             message: "symbols are nested more than \(ModelLimits.maximumNesting) levels deep"))
        }
        let source: (file: String, cursor: JSONCursor)
        if let known = symbolCursors[name] {
            source = (known.file, try known.cursor.within(known.file) { (c) throws(JSONSchemaError) in try c.member(.timeline) })
        } else if let libraryFile = librarySymbols[name] {
            source = (libraryFile, try folder.readJSON(libraryFile))
        } else if let bitmap {
            return try bitmapComposition(symbol: name, bitmap: bitmap, file: file, path: path)
        } else {
            throw ImportError(.schema(file: file, JSONSchemaError(
                path: path.appending("SN"),
                message: "symbol \"\(name)\" is not defined (not in the symbol dictionary\(isBTA ? " nor in LIBRARY/" : ""))")))
        }
        visiting.append(name)
        let (composition, _) = try buildComposition(id: name, timelineCursor: source.cursor, file: source.file)
        visiting.removeLast()
        register(composition)
        return name
    }

    /// The 2018 shape: a bitmap-only symbol is not in the dictionary; the instance carries `bitmap{name,Position}`.
    /// It becomes a one-frame composition that shows the sprite at `Position` inside the instance.
    private mutating func bitmapComposition(symbol: String, bitmap: (name: String, position: Vector2), file: String,
                                            path: JSONPath) throws(ImportError) -> String {
        guard spritesByName[bitmap.name] != nil else {
            throw ImportError(.missingSprite(name: bitmap.name, file: file, path: path.appending("bitmap").description))
        }
        var id = symbol
        if let existing = compositions[id] {
            let expected = AnimateImporter.bitmapNode(bitmap)
            if existing.nodes == [expected] { return id }
            id = "\(symbol)@\(bitmap.name),\(JSONWriter.format(bitmap.position.x)),\(JSONWriter.format(bitmap.position.y))"
            if compositions[id] != nil { return id }
        }
        register(Composition(id: id, name: symbol, duration: Frames(1), nodes: [AnimateImporter.bitmapNode(bitmap)]))
        return id
    }

    private static func bitmapNode(_ bitmap: (name: String, position: Vector2)) -> Node {
        var tracks = NodeTracks()
        tracks.position = Track(constant: bitmap.position)
        tracks.content = Track(constant: .sprite(bitmap.name))
        return Node(id: "bitmap", name: bitmap.name, kind: .instance, tracks: tracks)
    }

    // MARK: Timelines

    /// Converts one timeline; also returns its wire form (the root's frame labels become clips).
    private mutating func buildComposition(id: String, timelineCursor: JSONCursor, file: String) throws(ImportError)
        -> (Composition, AnimateTimeline)
    {
        var reader = AnimateReader()
        let timeline: AnimateTimeline
        do { timeline = try reader.timeline(timelineCursor) } catch { throw ImportError(.schema(file: file, error)) }
        for entry in reader.diagnostics {
            collector.add(Diagnostic(severity: .warning, code: entry.code, message: entry.message, file: file,
                                     path: entry.path.description))
        }
        let duration = timeline.layers.map { $0.frames.last.map { $0.index + $0.duration } ?? 0 }.max() ?? 0

        var nodes: [Node] = []
        var maskIDs: [String: String] = [:]
        for (index, layer) in timeline.layers.enumerated() where layer.type == .mask {
            maskIDs[layer.name] = AnimateImporter.layerID(index, layer)
        }
        for (layerIndex, layer) in timeline.layers.enumerated().reversed() {
            if layer.type == .folder { continue }
            if layer.type == .guide {
                // Guide layers help the animator in the editor; Flash never draws them.
                collector.add(Diagnostic(severity: .info, code: "guide-layer-skipped",
                                         message: "guide layer \"\(layer.name)\" is not drawn (as in Flash)", file: file,
                                         path: layer.path.description))
                continue
            }
            let layerID = AnimateImporter.layerID(layerIndex, layer)
            var maskedBy: String? = nil
            if let mask = layer.clippedBy {
                if let maskID = maskIDs[mask] { maskedBy = maskID } else {
                    collector.add(Diagnostic(severity: .warning, code: "unknown-mask-layer",
                                             message: "layer \"\(layer.name)\" is clipped by \"\(mask)\", which is not a mask layer of this symbol; drawn unmasked",
                                             file: file, path: layer.path.description))
                }
            }
            nodes.append(Node(id: layerID, name: layer.name, kind: .layer, isMask: layer.type == .mask, maskedBy: maskedBy))
            let slots = layer.frames.map(\.elements.count).max() ?? 0
            for slot in 0..<slots {
                let tracks = try elementTracks(layer: layer, slot: slot, duration: duration, file: file)
                nodes.append(Node(id: "\(layerID)/\(slot)", name: elementName(layer: layer, slot: slot),
                                  kind: .instance, parent: layerID, tracks: tracks))
            }
        }
        return (Composition(id: id, name: id, duration: Frames(Double(duration)), nodes: nodes), timeline)
    }

    private static func layerID(_ index: Int, _ layer: AnimateLayer) -> String { "\(index):\(layer.name)" }

    private func elementName(layer: AnimateLayer, slot: Int) -> String {
        for frame in layer.frames where slot < frame.elements.count {
            if case .symbol(let instance) = frame.elements[slot], let name = instance.instanceName, !name.isEmpty {
                return name
            }
        }
        return "\(layer.name) #\(slot)"
    }

    /// Everything one element slot of a layer does over time.
    private mutating func elementTracks(layer: AnimateLayer, slot: Int, duration: Int, file: String)
        throws(ImportError) -> NodeTracks
    {
        var position = Track<Vector2>(), scale = Track<Vector2>(), rotation = Track<Degrees>()
        var skew = Track<Degrees>(), pivot = Track<Vector2>(), color = Track<ColorTransform>()
        var content = Track<NodeContent>(), filters = Track<[Filter]>(), blend = Track<BlendMode>()
        var end = 0
        var current: (instance: CompositionInstance, start: Int)? = nil
        var previousEasing = Easing.hold
        var previousTween: AnimateTween? = nil

        for (frameIndex, frame) in layer.frames.enumerated() {
            if frame.index > end || (frameIndex == 0 && frame.index > 0) {
                content.append(Keyframe(frame: Frames(Double(end)), value: .none))
                current = nil
                previousEasing = .hold
            }
            end = frame.index + frame.duration
            let at = Frames(Double(frame.index))
            guard slot < frame.elements.count else {
                content.append(Keyframe(frame: at, value: .none))
                current = nil
                previousEasing = .hold
                continue
            }
            let element = frame.elements[slot]

            // Segment easing: an un-baked tween interpolates to the next keyframe when it continues the same
            // element without a gap; everything else holds.
            var easing = Easing.hold
            if let tween = frame.tween, frameIndex + 1 < layer.frames.count {
                let next = layer.frames[frameIndex + 1]
                if next.index == end, slot < next.elements.count,
                    AnimateImporter.sameTarget(element, next.elements[slot])
                {
                    easing = tween.easing
                    if tween.type == "MTO" || tween.type == "motion object" {
                        collector.add(Diagnostic(severity: .warning, code: "motion-tween-approximated",
                                                 message: "a motion-object tween is interpolated like a classic tween",
                                                 file: file, path: frame.path.description))
                    }
                }
            }

            let matrix: Matrix2D
            var localPivot = Vector2.zero
            var value: NodeContent
            var elementColor: ColorTransform? = nil
            var elementFilters: [Filter] = []
            var elementBlend = BlendMode.normal
            switch element {
            case .sprite(let sprite):
                guard spritesByName[sprite.name] != nil else {
                    throw ImportError(.missingSprite(name: sprite.name, file: file, path: sprite.path.description))
                }
                matrix = sprite.matrix
                value = .sprite(sprite.name)
            case .symbol(let instance):
                matrix = instance.matrix
                // The transformation point is in the instance's own (untransformed) space: in Animate 23's baked
                // balltest the ball keeps TRP (77.2, 77.2) while its matrix moves it to x = 217.95.
                if let trp = instance.transformationPoint { localPivot = trp }
                let compositionID = try requireSymbol(instance.symbolName, referencedFrom: file, path: instance.path,
                                                      bitmap: instance.bitmap)
                switch instance.type {
                case .graphic:
                    value = .composition(CompositionInstance(
                        composition: compositionID, firstFrame: Frames(Double(instance.firstFrame ?? 0)),
                        loop: instance.loop ?? .loop, clock: .parent))
                case .movieClip:
                    value = .composition(CompositionInstance(composition: compositionID, loop: .loop, clock: .independent))
                case .button:
                    value = .composition(CompositionInstance(composition: compositionID, loop: .singleFrame, clock: .parent))
                }
                elementColor = instance.color
                elementFilters = instance.filters
                if let name = instance.blend {
                    elementBlend = blendMode(name, file: file, path: instance.path)
                }
            }

            // Colour: the frame's effect wraps the element's.
            var totalColor = elementColor ?? .identity
            if let frameColor = frame.color { totalColor = frameColor.concatenating(totalColor) }
            let allFilters = elementFilters + frame.filters
            reportUndrawnFilters(allFilters, file: file, path: frame.path)

            // Components about the pivot; angles unwrapped along interpolated segments.
            var components = TransformComponents(matrix: matrix, pivot: localPivot)
            components = AnimateImporter.cleaned(components)
            if previousEasing.interpolates, let last = rotation.keyframes.last {
                components.rotation = AnimateImporter.unwrap(
                    components.rotation, after: last.value, tween: previousTween)
                if let lastSkew = skew.keyframes.last {
                    components.skew = AnimateImporter.unwrap(components.skew, after: lastSkew.value, tween: nil)
                }
            }
            position.append(Keyframe(frame: at, value: components.position, easing: easing))
            scale.append(Keyframe(frame: at, value: components.scale, easing: easing))
            rotation.append(Keyframe(frame: at, value: components.rotation, easing: easing))
            skew.append(Keyframe(frame: at, value: components.skew, easing: easing))
            pivot.append(Keyframe(frame: at, value: components.pivot))
            color.append(Keyframe(frame: at, value: totalColor, easing: easing))
            filters.append(Keyframe(frame: at, value: allFilters))
            blend.append(Keyframe(frame: at, value: elementBlend))

            // Content: a nested instance continues across keyframes when its time mapping does.
            if case .composition(let instance) = value {
                let length = compositions[instance.composition]?.duration.value ?? 0
                if let current,
                    AnimateImporter.continues(current.instance, from: current.start, with: instance, at: frame.index,
                                              length: length)
                {
                    // Same instance, same time line: nothing changes.
                } else {
                    content.appendRestarting(Keyframe(frame: at, value: value))
                    current = (instance, frame.index)
                }
            } else {
                content.append(Keyframe(frame: at, value: value))
                current = nil
            }
            previousEasing = easing
            previousTween = frame.tween
        }
        if end < duration { content.append(Keyframe(frame: Frames(Double(end)), value: .none)) }

        var tracks = NodeTracks()
        tracks.content = content
        tracks.position = position
        if !AnimateImporter.isConstant(scale, .one) { tracks.scale = scale }
        if !AnimateImporter.isConstant(rotation, Degrees(0)) { tracks.rotation = rotation }
        if !AnimateImporter.isConstant(skew, Degrees(0)) { tracks.skew = skew }
        if !AnimateImporter.isConstant(pivot, .zero) { tracks.pivot = pivot }
        if !AnimateImporter.isConstant(color, .identity) { tracks.color = color }
        if !AnimateImporter.isConstant(filters, []) { tracks.filters = filters }
        if !AnimateImporter.isConstant(blend, .normal) { tracks.blendMode = blend }
        return tracks
    }

    /// A warning `filter-not-rendered` for each filter the renderer does not draw: bevels, gradient filters,
    /// unknown kinds, and drawn kinds whose parameters could not be read.
    private mutating func reportUndrawnFilters(_ filters: [Filter], file: String, path: JSONPath) {
        for filter in filters where filter.effect == nil {
            let unreadable = ["blur", "glow", "dropShadow", "adjustColor"].contains(filter.kind)
            collector.add(Diagnostic(
                severity: .warning, code: "filter-not-rendered",
                message: unreadable
                    ? "\(filter.kind) filter has parameters that cannot be read; kept as data but not rendered"
                    : "\(filter.kind) filter is kept as data but not rendered",
                file: file, path: path.description))
        }
    }

    private static func isConstant<V>(_ track: Track<V>, _ value: V) -> Bool {
        track.keyframes.allSatisfy { $0.value == value }
    }

    /// Whether a tween can run from one element to the next: the same symbol (or sprite) in the same slot.
    private static func sameTarget(_ a: AnimateElement, _ b: AnimateElement) -> Bool {
        switch (a, b) {
        case (.symbol(let x), .symbol(let y)): return x.symbolName == y.symbolName
        case (.sprite(let x), .sprite(let y)): return x.name == y.name
        default: return false
        }
    }

    /// Whether `next`, starting at parent frame `nextStart`, shows exactly what `previous` (started at `start`)
    /// would show from then on, given the child's length `length` in frames.
    ///
    /// Baked exports repeat the instance on every keyframe with `FF` advanced (and wrapped by the child's length
    /// when it loops, or held at the end when it plays once); all of those continue one instance.
    static func continues(_ previous: CompositionInstance, from start: Int, with next: CompositionInstance,
                          at nextStart: Int, length: Double) -> Bool {
        guard previous.composition == next.composition, previous.loop == next.loop, previous.clock == next.clock
        else { return false }
        if next.clock == .independent { return true }
        let age = Double(nextStart - start)
        let p = previous.firstFrame.value, n = next.firstFrame.value
        func wrap(_ value: Double) -> Double {
            guard length > 0 else { return value }
            let r = value.truncatingRemainder(dividingBy: length)
            return r < 0 ? r + length : r
        }
        switch next.loop {
        case .singleFrame: return p == n
        case .loop: return wrap(p + age) == wrap(n)
        case .loopReverse: return wrap(p - age) == wrap(n)
        case .playOnce: return p + age == n || (p + age >= length - 1 && n >= length - 1)
        case .playOnceReverse: return p - age == n || (p - age <= 0 && n <= 0)
        }
    }

    /// Picks the turn of `angle` that the tween from `previous` travels: shortest by default, or in the forced
    /// direction with extra turns (`RT`/`RTT`).
    static func unwrap(_ angle: Degrees, after previous: Degrees, tween: AnimateTween?) -> Degrees {
        var delta = (angle.value - previous.value).truncatingRemainder(dividingBy: 360)
        switch tween?.rotate {
        case "clockwise", "CW", "cw":
            if delta < 0 { delta += 360 }
            delta += 360 * Double(max(tween?.rotateTimes ?? 0, 0))
        case "counter-clockwise", "CCW", "ccw", "counterclockwise":
            if delta > 0 { delta -= 360 }
            delta -= 360 * Double(max(tween?.rotateTimes ?? 0, 0))
        default:
            if delta > 180 { delta -= 360 } else if delta <= -180 { delta += 360 }
        }
        return Degrees(previous.value + delta)
    }

    /// Snaps floating-point noise from decomposition (1.0000000000000002 → 1, 1e-17 → 0).
    static func cleaned(_ components: TransformComponents) -> TransformComponents {
        func snap(_ value: Double) -> Double {
            let rounded = value.rounded()
            if abs(value - rounded) < 1e-9 { return rounded == 0 ? 0 : rounded }
            let fine = (value * 1e9).rounded() / 1e9
            return abs(value - fine) < 1e-12 ? fine : value
        }
        return TransformComponents(
            position: Vector2(x: snap(components.position.x), y: snap(components.position.y)),
            scale: Vector2(x: snap(components.scale.x), y: snap(components.scale.y)),
            rotation: Degrees(snap(components.rotation.value)), skew: Degrees(snap(components.skew.value)),
            pivot: Vector2(x: snap(components.pivot.x), y: snap(components.pivot.y)))
    }

    private mutating func blendMode(_ name: String, file: String, path: JSONPath) -> BlendMode {
        let numbered: [String: BlendMode] = [
            "0": .normal, "1": .normal, "2": .layer, "3": .multiply, "4": .screen, "5": .lighten, "6": .darken,
            "7": .difference, "8": .add, "9": .subtract, "10": .invert, "11": .alpha, "12": .erase,
            "13": .overlay, "14": .hardlight,
        ]
        let mode = BlendMode(rawValue: name.lowercased()) ?? numbered[name]
        guard let mode else {
            collector.add(Diagnostic(severity: .warning, code: "unknown-blend-mode",
                                     message: "blend mode \"\(name)\" is unknown; drawn as normal", file: file,
                                     path: path.description))
            return .normal
        }
        return mode
    }

    // MARK: Clips

    private func makeClips(rootComposition: Composition, timeline: AnimateTimeline, name: String) -> [Clip] {
        var labels: [(frame: Int, name: String)] = []
        for layer in timeline.layers {
            for frame in layer.frames {
                if let label = frame.label, !label.isEmpty,
                    !labels.contains(where: { $0.frame == frame.index && $0.name == label })
                {
                    labels.append((frame.index, label))
                }
            }
        }
        labels.sort { $0.frame < $1.frame || ($0.frame == $1.frame && $0.name < $1.name) }
        let total = rootComposition.duration.value
        guard total > 0 else { return [] }
        if labels.isEmpty {
            return [Clip(name: name, composition: rootComposition.id, start: .zero, duration: rootComposition.duration,
                         loopCount: 0)]
        }
        var clips: [Clip] = []
        var used = Set<String>()
        for (position, label) in labels.enumerated() {
            let nextStart = labels[(position + 1)...].first { $0.frame > label.frame }?.frame ?? Int(total)
            let length = Double(nextStart - label.frame)
            guard length > 0, Double(label.frame) < total else { continue }
            var clipName = label.name
            var counter = 2
            while used.contains(clipName) { clipName = "\(label.name)-\(counter)"; counter += 1 }
            used.insert(clipName)
            clips.append(Clip(name: clipName, composition: rootComposition.id, start: Frames(Double(label.frame)),
                              duration: Frames(length), loopCount: 0))
        }
        // Always the whole timeline too (after the labelled clips): labels often mark one-frame states whose
        // movie clips play on while the playhead stays, and frames before the first label belong to no label.
        var wholeName = name
        var counter = 2
        while used.contains(wholeName) { wholeName = "\(name)-\(counter)"; counter += 1 }
        clips.append(Clip(name: wholeName, composition: rootComposition.id, start: .zero,
                          duration: rootComposition.duration, loopCount: 0))
        return clips
    }
}
