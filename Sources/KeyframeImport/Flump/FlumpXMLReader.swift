import KeyframeModel

/// Reads Flump's XML export into the wire structures.
///
/// The XML carries the same model as `library.json` with attribute syntax (`KeyframeMold.toXML` and friends):
/// `<resources><movie name frameRate><layer name flipbook?><kf duration ref? loc="x,y" …/></layer></movie>
/// <textureGroups><textureGroup scaleFactor><atlas file><texture name rect="x,y,w,h" origin="x,y"/>…`.
/// Keyframes have no `index` (it is the sum of the previous durations; an explicit `index` is accepted), and the
/// frame rate is written on every movie. Errors name the line and column of the offending element or attribute.
struct FlumpXMLReader {
    let file: String

    /// Reads the library from XML bytes.
    func read(_ bytes: [UInt8]) throws(ImportError) -> FlumpLibrary {
        let root: MarkupElement
        do { root = try MarkupReader.parse(bytes) } catch {
            throw ImportError(.markup(file: file, line: error.line, column: error.column,
                                      message: "invalid XML: \(error.message)"))
        }
        guard root.name == "resources" else {
            throw fail(root, "expected <resources> as the root element of a Flump XML export, found <\(root.name)>")
        }
        var notes: [(code: String, message: String, location: FlumpLocation)] = []
        var movies: [FlumpMovie] = []
        var frameRate: (value: Double, location: FlumpLocation)? = nil
        var groups: [FlumpTextureGroup] = []
        var looseAtlases: [FlumpAtlas] = []
        for child in root.children {
            switch child.name {
            case "movie":
                movies.append(try movie(child, notes: &notes))
                if let attribute = child.attribute("frameRate") {
                    let value = try number(attribute, in: child)
                    if let frameRate, frameRate.value != value {
                        notes.append(("frame-rate-differs",
                                      "movie \"\(movies.last!.id)\" says \(value) fps but the first movie says \(frameRate.value) fps; \(frameRate.value) fps is used for all",
                                      location(attribute)))
                    } else if frameRate == nil {
                        frameRate = (value, location(attribute))
                    }
                }
            case "textureGroups":
                for groupElement in child.children {
                    guard groupElement.name == "textureGroup" else {
                        notes.append(unknown(groupElement, in: child))
                        continue
                    }
                    var scale = 1.0
                    if let attribute = groupElement.attribute("scaleFactor") {
                        scale = try number(attribute, in: groupElement)
                        guard scale > 0 else { throw fail(attribute, "the scale factor must be positive") }
                    }
                    var atlases: [FlumpAtlas] = []
                    for atlasElement in groupElement.children {
                        guard atlasElement.name == "atlas" else {
                            notes.append(unknown(atlasElement, in: groupElement))
                            continue
                        }
                        atlases.append(try atlas(atlasElement, notes: &notes))
                    }
                    groups.append(FlumpTextureGroup(scaleFactor: scale, atlases: atlases, location: location(groupElement)))
                }
            case "atlas":
                looseAtlases.append(try atlas(child, notes: &notes))
            default:
                notes.append(unknown(child, in: root))
            }
        }
        if !looseAtlases.isEmpty {
            groups.insert(FlumpTextureGroup(scaleFactor: 1, atlases: looseAtlases, location: location(root)), at: 0)
        }
        guard !groups.isEmpty else { throw fail(root, "no <textureGroups> (and no <atlas>) in the library") }
        guard let frameRate else {
            throw fail(root, "no frame rate: no <movie> has a frameRate attribute")
        }
        return FlumpLibrary(shape: .xml, frameRate: frameRate.value, frameRateLocation: frameRate.location,
                            movies: movies, textureGroups: groups, notes: notes)
    }

    private func movie(_ element: MarkupElement, notes: inout [(code: String, message: String, location: FlumpLocation)])
        throws(ImportError) -> FlumpMovie
    {
        let id = try required(element, "name").value
        if let baseClass = element.attribute("baseClass") {
            notes.append(("base-class-ignored",
                          "a movie's ActionScript base class (\(baseClass.value)) has no meaning outside Flash",
                          location(baseClass)))
        }
        var layers: [FlumpLayer] = []
        for layerElement in element.children {
            guard layerElement.name == "layer" else {
                notes.append(unknown(layerElement, in: element))
                continue
            }
            var keyframes: [FlumpKeyframe] = []
            var next = 0
            for kf in layerElement.children {
                guard kf.name == "kf" else {
                    notes.append(unknown(kf, in: layerElement))
                    continue
                }
                let keyframe = try keyframe(kf, defaultIndex: next)
                next = keyframe.index + keyframe.duration
                keyframes.append(keyframe)
            }
            let flipbook = try layerElement.attribute("flipbook").map { (a) throws(ImportError) in try bool(a, in: layerElement) }
            layers.append(FlumpLayer(name: try required(layerElement, "name").value, flipbook: flipbook ?? false,
                                     keyframes: keyframes, location: location(layerElement)))
        }
        return FlumpMovie(id: id, layers: layers, location: location(element))
    }

    private func keyframe(_ element: MarkupElement, defaultIndex: Int) throws(ImportError) -> FlumpKeyframe {
        let duration = try integer(try required(element, "duration"), in: element)
        let index = try element.attribute("index").map { (a) throws(ImportError) in try integer(a, in: element) }
        let ref = element.attribute("ref")
        var keyframe = FlumpKeyframe(index: index ?? defaultIndex, duration: duration, ref: ref?.value,
                                     source: location(element), refSource: ref.map(location) ?? location(element))
        for attribute in element.attributes {
            switch attribute.name {
            case "duration", "index", "ref": break
            case "loc": keyframe.location = try pair(attribute, in: element)
            case "scale": keyframe.scale = try pair(attribute, in: element)
            case "skew": keyframe.skew = try pair(attribute, in: element)
            case "pivot": keyframe.pivot = try pair(attribute, in: element)
            case "alpha": keyframe.alpha = try number(attribute, in: element)
            case "visible": keyframe.visible = try bool(attribute, in: element)
            case "tweened": keyframe.tweened = try bool(attribute, in: element)
            case "ease": keyframe.ease = try number(attribute, in: element)
            case "label": keyframe.label = attribute.value
            case "tint":
                let values = try numbers(attribute, in: element)
                guard values.count == 2 else {
                    throw fail(attribute, "<kf> attribute tint: expected \"multiplier,colour\", found \"\(attribute.value)\"")
                }
                guard values[1] >= 0, values[1] <= 0xFFFFFF, values[1] == values[1].rounded() else {
                    throw fail(attribute, "<kf> attribute tint: the colour must be an integer 0…0xFFFFFF, found \"\(attribute.value)\"")
                }
                keyframe.tint = (values[0], Int(values[1]))
            default:
                break
            }
        }
        return keyframe
    }

    private func atlas(_ element: MarkupElement, notes: inout [(code: String, message: String, location: FlumpLocation)])
        throws(ImportError) -> FlumpAtlas
    {
        var textures: [FlumpTexture] = []
        for textureElement in element.children {
            guard textureElement.name == "texture" else {
                notes.append(unknown(textureElement, in: element))
                continue
            }
            let name: MarkupAttribute
            if let attribute = textureElement.attribute("name") {
                name = attribute
            } else {
                name = try required(textureElement, "symbol")
            }
            let rectAttribute = try required(textureElement, "rect")
            let rect = try numbers(rectAttribute, in: textureElement)
            guard rect.count == 4 else {
                throw fail(rectAttribute, "<texture> attribute rect: expected \"x,y,width,height\", found \"\(rectAttribute.value)\"")
            }
            guard rect[2] >= 0, rect[3] >= 0 else { throw fail(rectAttribute, "a texture's size must not be negative") }
            let origin = try pair(try required(textureElement, "origin"), in: textureElement)
            if let baseClass = textureElement.attribute("baseClass") {
                notes.append(("base-class-ignored",
                              "a texture's ActionScript base class (\(baseClass.value)) has no meaning outside Flash",
                              location(baseClass)))
            }
            textures.append(FlumpTexture(
                symbol: name.value, rect: Rect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]),
                origin: origin, location: location(textureElement)))
        }
        let file = try required(element, "file")
        return FlumpAtlas(file: file.value, textures: textures, location: location(element),
                          fileLocation: location(file))
    }

    // MARK: Attribute values

    private func required(_ element: MarkupElement, _ name: String) throws(ImportError) -> MarkupAttribute {
        guard let attribute = element.attribute(name) else {
            throw fail(element, "<\(element.name)> is missing the required attribute \"\(name)\"")
        }
        return attribute
    }

    private func numbers(_ attribute: MarkupAttribute, in element: MarkupElement) throws(ImportError) -> [Double] {
        var values: [Double] = []
        for part in attribute.value.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingSpaces
            guard let value = Double(text), value.isFinite else {
                throw fail(attribute, "<\(element.name)> attribute \(attribute.name): expected numbers, found \"\(attribute.value)\"")
            }
            values.append(value)
        }
        return values
    }

    private func number(_ attribute: MarkupAttribute, in element: MarkupElement) throws(ImportError) -> Double {
        let values = try numbers(attribute, in: element)
        guard values.count == 1 else {
            throw fail(attribute, "<\(element.name)> attribute \(attribute.name): expected a number, found \"\(attribute.value)\"")
        }
        return values[0]
    }

    private func integer(_ attribute: MarkupAttribute, in element: MarkupElement) throws(ImportError) -> Int {
        // Bounded like JSON integers (±2⁵³), so that sums of indices and durations cannot overflow.
        let text = attribute.value.trimmingSpaces
        guard let value = Int(text) ?? (text.allSatisfy { $0.isNumber || $0 == "-" } && !text.isEmpty ? Int.max : nil) else {
            throw fail(attribute, "<\(element.name)> attribute \(attribute.name): expected an integer, found \"\(attribute.value)\"")
        }
        guard abs(value) <= 9_007_199_254_740_992 else {
            throw fail(attribute, "<\(element.name)> attribute \(attribute.name): \(attribute.value) is out of range")
        }
        return value
    }

    private func pair(_ attribute: MarkupAttribute, in element: MarkupElement) throws(ImportError) -> Vector2 {
        let values = try numbers(attribute, in: element)
        guard values.count == 2 else {
            throw fail(attribute, "<\(element.name)> attribute \(attribute.name): expected \"x,y\", found \"\(attribute.value)\"")
        }
        return Vector2(x: values[0], y: values[1])
    }

    private func bool(_ attribute: MarkupAttribute, in element: MarkupElement) throws(ImportError) -> Bool {
        switch attribute.value.trimmingSpaces {
        case "true", "1": return true
        case "false", "0": return false
        default:
            throw fail(attribute, "<\(element.name)> attribute \(attribute.name): expected true or false, found \"\(attribute.value)\"")
        }
    }

    // MARK: Locations

    private func location(_ element: MarkupElement) -> FlumpLocation { .xml(line: element.line, column: element.column) }
    private func location(_ attribute: MarkupAttribute) -> FlumpLocation {
        .xml(line: attribute.line, column: attribute.column)
    }

    private func fail(_ element: MarkupElement, _ message: String) -> ImportError {
        ImportError(.markup(file: file, line: element.line, column: element.column, message: message))
    }

    private func fail(_ attribute: MarkupAttribute, _ message: String) -> ImportError {
        ImportError(.markup(file: file, line: attribute.line, column: attribute.column, message: message))
    }

    private func unknown(_ element: MarkupElement, in parent: MarkupElement)
        -> (code: String, message: String, location: FlumpLocation)
    {
        ("unknown-element", "<\(element.name)> inside <\(parent.name)> is not part of Flump's XML and was skipped",
         location(element))
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}

extension String {
    /// The text without leading and trailing spaces and tabs.
    fileprivate var trimmingSpaces: Substring { Substring(self).trimmingSpaces }
}
