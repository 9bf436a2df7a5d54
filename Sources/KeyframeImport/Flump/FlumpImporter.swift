import KeyframeFiles
import KeyframeJSON
import KeyframeModel

/// Converts a Flump export (`library.json` in the current or the 2013 schema, or the XML export, plus atlas PNGs)
/// into a normalized document.
///
/// Rules (see `docs/format.md` §6.3, and `Layer.as`/`Movie.as` of Flump's ActionScript runtime):
/// - every movie becomes a composition with one `layer` node per layer; the root is the first movie that no other
///   movie nests; every movie also gets a clip named after it, and each label a clip `<movie>:<label>`;
/// - keyframe values map one to one: `loc` → position, `skew` → rotation = skewY and skew = skewX − skewY (degrees,
///   never re-normalized), `scale`, `alpha` → opacity; `pivot` and `visible` are held;
/// - a tweened keyframe that is not the layer's last eases with ``Easing/flumpQuadratic(ease:)`` (Flump's sign),
///   `ease 0` is linear, everything else holds;
/// - the runtime replaces a texture's origin by the keyframe pivot, so the pivot is measured in the texture's own
///   pixels; with the model's sprite origin at `−origin` the node pivot becomes `pivot − origin` (the 2013 schema
///   has no pivots: its images sit at `offset = −origin` around the layer's origin, which is the same placement);
/// - a nested movie keeps its own clock (`independent`, looping) and continues while consecutive keyframes name
///   it; a layer is hidden after its last keyframe ends.
struct FlumpImporter {
    /// Longest timeline accepted, in frames (as for Animate).
    static let maximumTimelineFrames = AnimateReader.maximumTimelineFrames
    /// Movies nested deeper than this are rejected.
    static let maximumNesting = ModelLimits.maximumNesting

    private let folder: SourceFolder
    private let file: String
    private let options: ImportOptions
    private var collector = DiagnosticCollector()
    private var library: FlumpLibrary
    private var sprites: [String: Sprite] = [:]
    private var scaleFactor = 1.0
    private var movies: [String: FlumpMovie] = [:]

    /// Reads and converts the library `file` of `folder`.
    static func importDocument(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError)
        -> Document
    {
        var importer = try FlumpImporter(folder: folder, file: file, options: options)
        return try importer.run()
    }

    private init(folder: SourceFolder, file: String, options: ImportOptions) throws(ImportError) {
        self.folder = folder
        self.file = file
        self.options = options
        if file.lowercased().hasSuffix(".xml") {
            library = try FlumpXMLReader(file: file).read(try folder.read(file))
        } else {
            let root = try folder.readJSON(file)
            library = try root.within(file) { (cursor) throws(JSONSchemaError) in try FlumpJSONReader.read(cursor) }
        }
    }

    private mutating func run() throws(ImportError) -> Document {
        for note in library.notes {
            let severity: Diagnostic.Severity = note.code == "base-class-ignored" ? .info : .warning
            collector.add(Diagnostic(severity: severity, code: note.code, message: note.message, file: file,
                                     path: note.location.description))
        }
        guard library.frameRate > 0, library.frameRate <= 1000 else {
            throw library.frameRateLocation.error(file: file, "frame rate \(library.frameRate) is out of range (0 < fps ≤ 1000)")
        }

        let assets = try makeAssets()

        // Movies: unique ids, valid keyframe timing, resolvable references, no cycles.
        for movie in library.movies {
            if movies[movie.id] != nil {
                throw movie.location.error(file: file, "movie id \"\(movie.id)\" is used twice")
            }
            movies[movie.id] = movie
        }
        guard !library.movies.isEmpty else {
            throw ImportError(.invalidFile(file: file, reason: "the Flump library has no movies"))
        }
        for movie in library.movies {
            for layer in usedLayers(of: movie) { try checkTiming(layer) }
        }
        try checkReferences()

        // The root: the first movie that no other movie nests (Flump libraries have no single root).
        var nested = Set<String>()
        for movie in library.movies {
            for layer in usedLayers(of: movie) {
                for keyframe in layer.keyframes {
                    if let ref = keyframe.ref, sprites[ref] == nil, movies[ref] != nil { nested.insert(ref) }
                }
            }
        }
        let rootMovie = library.movies.first { !nested.contains($0.id) } ?? library.movies[0]
        let ordered = [rootMovie] + library.movies.filter { $0.id != rootMovie.id }

        var compositions: [Composition] = []
        var clips: [Clip] = []
        var usedClipNames = Set<String>()
        for movie in ordered {
            let composition = makeComposition(movie)
            compositions.append(composition)
            clips += makeClips(movie, duration: composition.duration, used: &usedClipNames)
        }
        KeepsTimeMarking.apply(to: &compositions)

        return Document(
            name: documentName, frameRate: FrameRate(library.frameRate),
            source: Provenance(format: .flump, tool: "Flump", variant: library.shape.rawValue,
                               files: folder.filesRead.sorted()),
            assets: assets, compositions: compositions, root: rootMovie.id, clips: clips,
            diagnostics: collector.diagnostics)
    }

    /// `library.json`/`library.xml` are Flump's fixed names, so the folder names the library; any other file names
    /// it itself.
    private var documentName: String {
        let base = file.split(separator: "/").last.map(String.init) ?? file
        if base == "library.json" || base == "library.xml" || base == "resources.json" {
            let folderName = folder.url.lastPathComponent
            if !folderName.isEmpty { return folderName }
        }
        if let dot = base.lastIndex(of: "."), dot > base.startIndex { return String(base[..<dot]) }
        return base
    }

    // MARK: Assets

    /// The texture group for the requested scale factor (Flump's own rule: the largest factor not above the request,
    /// else the smallest), its atlas images and one sprite per texture.
    private mutating func makeAssets() throws(ImportError) -> Assets {
        let requested = options.scaleFactor ?? 1
        let sortedGroups = library.textureGroups.enumerated().sorted {
            $0.element.scaleFactor < $1.element.scaleFactor
                || ($0.element.scaleFactor == $1.element.scaleFactor && $0.offset < $1.offset)
        }.map(\.element)
        guard let smallest = sortedGroups.first else {
            throw ImportError(.invalidFile(file: file, reason: "the library has no texture groups"))
        }
        let group = sortedGroups.last { $0.scaleFactor <= requested } ?? smallest
        scaleFactor = group.scaleFactor
        if library.textureGroups.count > 1 || (options.scaleFactor != nil && group.scaleFactor != requested) {
            let available = sortedGroups.map { JSONWriter.format($0.scaleFactor) }.joined(separator: ", ")
            collector.add(Diagnostic(
                severity: .info, code: "texture-group-chosen",
                message: "texture groups at scale factors \(available); using \(JSONWriter.format(group.scaleFactor)) (requested \(JSONWriter.format(requested)))",
                file: file, path: group.location.description))
        }

        var images: [AtlasImage] = []
        var spriteList: [Sprite] = []
        for atlas in group.atlases {
            let imageFile: String
            do { imageFile = try folder.resolve(atlas.file) } catch {
                throw atlas.fileLocation.error(
                    file: file, "the atlas image " + error.message(folder: "the export's folder"))
            }
            var imageSize = folder.pngSize(imageFile)
            if imageSize == nil && options.allowMissingImages && !folder.fileExists(imageFile) {
                // Flump records no atlas size: the smallest image that holds every texture.
                let width = atlas.textures.map { $0.rect.x + $0.rect.width }.max() ?? 0
                let height = atlas.textures.map { $0.rect.y + $0.rect.height }.max() ?? 0
                if width > 0 && height > 0 {
                    collector.add(Diagnostic(
                        severity: .warning, code: "atlas-image-missing",
                        message: "\(atlas.file) not found; its size is taken as the extent of its textures, "
                            + "\(JSONWriter.format(width.rounded(.up)))×\(JSONWriter.format(height.rounded(.up))) (rendering needs the image)",
                        file: file, path: atlas.location.description))
                    imageSize = Size(width: width.rounded(.up), height: height.rounded(.up))
                }
            }
            guard let pixelSize = imageSize else {
                let reason = folder.outsideReason(imageFile)
                    ?? (folder.fileExists(imageFile) ? "atlas image is not a PNG" : "atlas image not found")
                throw ImportError(.missingFile(
                    path: imageFile,
                    reason: "\(reason) (named by \(file) at \(atlas.location))"))
            }
            if !images.contains(where: { $0.id == atlas.file }) {
                images.append(AtlasImage(id: atlas.file, path: imageFile, pixelSize: pixelSize,
                                         resolution: group.scaleFactor))
            }
            for texture in atlas.textures {
                if sprites[texture.symbol] != nil {
                    collector.add(Diagnostic(severity: .warning, code: "duplicate-texture",
                                             message: "texture \"\(texture.symbol)\" is defined twice; the first is used",
                                             file: file, path: texture.location.description))
                    continue
                }
                let r = texture.rect
                if r.x < 0 || r.y < 0 || r.x + r.width > pixelSize.width + 1e-9 || r.y + r.height > pixelSize.height + 1e-9 {
                    throw texture.location.error(
                        file: file,
                        "texture \"\(texture.symbol)\" (\(JSONWriter.format(r.x)),\(JSONWriter.format(r.y)) \(JSONWriter.format(r.width))×\(JSONWriter.format(r.height))) lies outside \(atlas.file) (\(JSONWriter.format(pixelSize.width))×\(JSONWriter.format(pixelSize.height)))")
                }
                let sprite = Sprite(
                    id: texture.symbol, name: texture.symbol, image: atlas.file, region: r, rotated: false,
                    origin: Vector2(x: -texture.origin.x / group.scaleFactor, y: -texture.origin.y / group.scaleFactor),
                    size: Size(width: r.width / group.scaleFactor, height: r.height / group.scaleFactor))
                sprites[texture.symbol] = sprite
                spriteList.append(sprite)
            }
        }
        return Assets(images: images, sprites: spriteList)
    }

    // MARK: Checks

    /// The layers the runtime plays: a flipbook movie (first layer a flipbook) plays its first layer only.
    private func usedLayers(of movie: FlumpMovie) -> [FlumpLayer] {
        if let first = movie.layers.first, first.flipbook { return [first] }
        return movie.layers
    }

    /// Keyframes must follow each other without overlapping; durations are at least one frame.
    private mutating func checkTiming(_ layer: FlumpLayer) throws(ImportError) {
        var end = 0
        for (position, keyframe) in layer.keyframes.enumerated() {
            guard keyframe.duration >= 1 else {
                throw keyframe.source.error(file: file, "keyframe duration \(keyframe.duration) must be at least 1 frame")
            }
            guard keyframe.index >= 0, keyframe.index <= FlumpImporter.maximumTimelineFrames,
                keyframe.duration <= FlumpImporter.maximumTimelineFrames - keyframe.index
            else {
                throw keyframe.source.error(
                    file: file,
                    "keyframe \(keyframe.index)…\(keyframe.index + keyframe.duration) lies outside 0…\(FlumpImporter.maximumTimelineFrames) (timelines are limited to \(FlumpImporter.maximumTimelineFrames) frames)")
            }
            if position > 0 {
                guard keyframe.index >= end else {
                    throw keyframe.source.error(
                        file: file, "keyframe starts at frame \(keyframe.index), inside the previous keyframe (which ends at \(end))")
                }
                if keyframe.index > end {
                    collector.add(Diagnostic(
                        severity: .warning, code: "keyframe-gap",
                        message: "a keyframe starts after a gap (the previous one ends earlier); the previous keyframe holds or tweens across the gap",
                        file: file, path: keyframe.source.description))
                }
            }
            end = keyframe.index + keyframe.duration
        }
    }

    /// Every `ref` names a texture of the chosen group or a movie, and movies do not contain themselves.
    private mutating func checkReferences() throws(ImportError) {
        for movie in library.movies {
            for layer in usedLayers(of: movie) {
                for keyframe in layer.keyframes {
                    guard let ref = keyframe.ref else { continue }
                    let isTexture = sprites[ref] != nil, isMovie = movies[ref] != nil
                    if isTexture && isMovie {
                        collector.add(Diagnostic(
                            severity: .warning, code: "ambiguous-ref",
                            message: "\"\(ref)\" names both a texture and a movie; the texture is shown",
                            file: file, path: keyframe.refSource.description))
                    } else if !isTexture && !isMovie {
                        throw keyframe.refSource.error(
                            file: file,
                            "ref \"\(ref)\" names neither a texture of the texture group at scale factor \(JSONWriter.format(scaleFactor)) nor a movie")
                    }
                }
            }
        }
        // Cycles: depth-first over movie references, reporting the chain from the outer movie.
        var finished = Set<String>()
        var stack: [String] = []
        func visit(_ id: String) throws(ImportError) {
            if finished.contains(id) { return }
            if let start = stack.firstIndex(of: id) { throw ImportError(.symbolCycle(Array(stack[start...]) + [id])) }
            guard stack.count < FlumpImporter.maximumNesting, let movie = movies[id] else {
                throw movies[id]?.location.error(file: file, "movies are nested more than \(FlumpImporter.maximumNesting) levels deep")
                    ?? ImportError(.invalidFile(file: file, reason: "unknown movie \(id)"))
            }
            stack.append(id)
            for layer in usedLayers(of: movie) {
                for keyframe in layer.keyframes {
                    if let ref = keyframe.ref, sprites[ref] == nil, movies[ref] != nil { try visit(ref) }
                }
            }
            stack.removeLast()
            finished.insert(id)
        }
        for movie in library.movies { try visit(movie.id) }
    }

    // MARK: Movies

    private mutating func makeComposition(_ movie: FlumpMovie) -> Composition {
        let layers = usedLayers(of: movie)
        if layers.count < movie.layers.count {
            collector.add(Diagnostic(
                severity: .warning, code: "flipbook-extra-layers",
                message: "movie \"\(movie.id)\" is a flipbook; like Flump, only its first layer is played",
                file: file, path: movie.location.description))
        }
        let duration = layers.map { $0.keyframes.last.map { $0.index + $0.duration } ?? 0 }.max() ?? 0
        var nodes: [Node] = []
        for (index, layer) in layers.enumerated() {
            nodes.append(Node(id: "\(index):\(layer.name)", name: layer.name, kind: .layer,
                              tracks: layerTracks(layer, movieDuration: duration)))
        }
        return Composition(id: movie.id, name: movie.id, duration: Frames(Double(duration)), nodes: nodes)
    }

    /// Everything one layer does over time.
    private mutating func layerTracks(_ layer: FlumpLayer, movieDuration: Int) -> NodeTracks {
        // A layer that never shows anything is an empty container in Flump; its values are never applied.
        guard layer.keyframes.contains(where: { $0.ref != nil }) else { return NodeTracks() }

        var position = Track<Vector2>(), scale = Track<Vector2>(), rotation = Track<Degrees>()
        var skew = Track<Degrees>(), opacity = Track<Double>(), pivot = Track<Vector2>()
        var visible = Track<Bool>(), content = Track<NodeContent>(), color = Track<ColorTransform>()
        for (index, keyframe) in layer.keyframes.enumerated() {
            let at = Frames(Double(keyframe.index))
            let isLast = index == layer.keyframes.count - 1
            var easing = Easing.hold
            if keyframe.tweened && !isLast {
                easing = keyframe.ease == 0 ? .linear : .flumpQuadratic(ease: clampedEase(keyframe))
            }
            position.append(Keyframe(frame: at, value: keyframe.location, easing: easing))
            scale.append(Keyframe(frame: at, value: keyframe.scale, easing: easing))
            rotation.append(Keyframe(frame: at, value: Degrees(radians: keyframe.skew.y), easing: easing))
            skew.append(Keyframe(frame: at, value: Degrees(radians: keyframe.skew.x - keyframe.skew.y), easing: easing))
            opacity.append(Keyframe(frame: at, value: keyframe.alpha, easing: easing))
            visible.append(Keyframe(frame: at, value: keyframe.visible))

            // What the keyframe shows. Consecutive keyframes naming the same item share one display object in
            // Flump, so a nested movie keeps running across them: `append` drops an equal repeat.
            var value = NodeContent.none
            var localPivot = keyframe.pivot
            if let ref = keyframe.ref {
                if let sprite = sprites[ref] {
                    value = .sprite(sprite.id)
                    if library.shape != .json2013 && library.shape != .json2012 {
                        // Current exports measure the pivot in the texture's pixels (the runtime replaces the
                        // image's origin pivot by it); the model's local space has the origin at (0, 0).
                        localPivot = Vector2(x: keyframe.pivot.x + sprite.origin.x, y: keyframe.pivot.y + sprite.origin.y)
                    }
                } else {
                    value = .composition(CompositionInstance(composition: ref, firstFrame: .zero, loop: .loop,
                                                             clock: .independent))
                }
            }
            content.append(Keyframe(frame: at, value: value))
            pivot.append(Keyframe(frame: at, value: localPivot))
            if let tint = keyframe.tint {
                color.append(Keyframe(frame: at, value: FlumpImporter.tintColor(tint)))
                collector.add(Diagnostic(
                    severity: .info, code: "tint-applied",
                    message: "keyframe tints are applied as a held colour transform (Flump's ActionScript runtime ignores them; pixi-flump applies them)",
                    file: file, path: keyframe.source.description))
            } else {
                color.append(Keyframe(frame: at, value: .identity))
            }
        }
        // After its last keyframe a layer shows nothing (Layer.drawFrame hides it past its own length). A layer
        // whose keyframes all show one movie keeps that display object, hidden, and the movie keeps running
        // (Movie.advanceTime advances every layer's current movie) into the parent's next loop, where the layer
        // shows it again without restarting it: the content stays and the layer turns invisible, so the
        // instance's span covers the whole movie (§4.7 keepsTime).
        if let last = layer.keyframes.last, last.index + last.duration < movieDuration {
            let end = Frames(Double(last.index + last.duration))
            if content.keyframes.count == 1, case .composition = content.keyframes[0].value {
                visible.append(Keyframe(frame: end, value: false))
            } else {
                content.append(Keyframe(frame: end, value: .none))
            }
        }

        var tracks = NodeTracks()
        tracks.content = content
        tracks.position = position
        if !FlumpImporter.isConstant(scale, .one) { tracks.scale = scale }
        if !FlumpImporter.isConstant(rotation, Degrees(0)) { tracks.rotation = rotation }
        if !FlumpImporter.isConstant(skew, Degrees(0)) { tracks.skew = skew }
        if !FlumpImporter.isConstant(opacity, 1) { tracks.opacity = opacity }
        if !FlumpImporter.isConstant(pivot, .zero) { tracks.pivot = pivot }
        if !FlumpImporter.isConstant(visible, true) { tracks.visible = visible }
        if !FlumpImporter.isConstant(color, .identity) { tracks.color = color }
        return tracks
    }

    /// Flump's ease is meant for −1…1 (the model's range); anything beyond is clamped with a warning.
    private mutating func clampedEase(_ keyframe: FlumpKeyframe) -> Double {
        let clamped = min(max(keyframe.ease, -1), 1)
        if clamped != keyframe.ease {
            collector.add(Diagnostic(severity: .warning, code: "ease-clamped",
                                     message: "ease \(keyframe.ease) is outside −1…1 and was clamped",
                                     file: file, path: keyframe.source.description))
        }
        return clamped
    }

    /// Flump's tint `[amount, 0xRRGGBB]` as a colour transform (Animate's tint formula).
    static func tintColor(_ tint: (amount: Double, rgb: Int)) -> ColorTransform {
        let amount = min(max(tint.amount, 0), 1)
        let m = 1 - amount
        return ColorTransform(
            redMultiplier: m, greenMultiplier: m, blueMultiplier: m,
            redOffset: Double(tint.rgb >> 16 & 0xFF) * amount, greenOffset: Double(tint.rgb >> 8 & 0xFF) * amount,
            blueOffset: Double(tint.rgb & 0xFF) * amount)
    }

    private static func isConstant<V>(_ track: Track<V>, _ value: V) -> Bool {
        track.keyframes.allSatisfy { $0.value == value }
    }

    // MARK: Clips

    /// One clip per movie, named after it, then one per label, `<movie>:<label>`, up to the movie's next label.
    private func makeClips(_ movie: FlumpMovie, duration: Frames, used: inout Set<String>) -> [Clip] {
        guard duration.value > 0 else { return [] }
        func unique(_ name: String) -> String {
            var candidate = name
            var counter = 2
            while used.contains(candidate) {
                candidate = "\(name)-\(counter)"
                counter += 1
            }
            used.insert(candidate)
            return candidate
        }
        var clips = [Clip(name: unique(movie.id), composition: movie.id, start: .zero, duration: duration, loopCount: 0)]
        var labels: [(frame: Int, name: String)] = []
        for layer in usedLayers(of: movie) {
            for keyframe in layer.keyframes {
                if let label = keyframe.label, !label.isEmpty,
                    !labels.contains(where: { $0.frame == keyframe.index && $0.name == label })
                {
                    labels.append((keyframe.index, label))
                }
            }
        }
        labels.sort { $0.frame < $1.frame || ($0.frame == $1.frame && $0.name < $1.name) }
        for (position, label) in labels.enumerated() where Double(label.frame) < duration.value {
            let end = labels[(position + 1)...].first { $0.frame > label.frame }.map { Double($0.frame) } ?? duration.value
            clips.append(Clip(name: unique("\(movie.id):\(label.name)"), composition: movie.id,
                              start: Frames(Double(label.frame)), duration: Frames(end - Double(label.frame)),
                              loopCount: 0))
        }
        return clips
    }
}
