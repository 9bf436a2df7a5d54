import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// ThorVG playing a Lottie file from memory, through its C API, on the calling thread (no worker threads), into a
/// premultiplied RGBA buffer: the same library the PyPI package thorvg-python wraps (its bundled `libthorvg-1`), loaded
/// with `dlopen` so that it runs in this process like rlottie, without Python in between.
///
/// The library is found through `KEYFRAME_THORVG_LIB`, or else by asking `python3` where thorvg-python is installed.
final class ThorVG {
    /// The C functions used, resolved once.
    struct API {
        typealias EngineInit = @convention(c) (UInt32) -> Int32
        typealias CanvasCreate = @convention(c) (UInt8) -> OpaquePointer?
        typealias SetTarget = @convention(c) (OpaquePointer?, UnsafeMutablePointer<UInt32>?, UInt32, UInt32, UInt32,
                                              UInt8) -> Int32
        typealias New = @convention(c) () -> OpaquePointer?
        typealias GetPicture = @convention(c) (OpaquePointer?) -> OpaquePointer?
        typealias LoadData = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UInt32, UnsafePointer<CChar>?,
                                             UnsafePointer<CChar>?, Bool) -> Int32
        typealias GetSize = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?)
            -> Int32
        typealias SetSize = @convention(c) (OpaquePointer?, Float, Float) -> Int32
        typealias Translate = @convention(c) (OpaquePointer?, Float, Float) -> Int32
        typealias Push = @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32
        typealias SetFrame = @convention(c) (OpaquePointer?, Float) -> Int32
        typealias GetTotal = @convention(c) (OpaquePointer?, UnsafeMutablePointer<Float>?) -> Int32
        typealias Step = @convention(c) (OpaquePointer?) -> Int32
        typealias Draw = @convention(c) (OpaquePointer?, Bool) -> Int32
        typealias Version = @convention(c) (UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?,
                                            UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UnsafePointer<CChar>?>?)
            -> Int32

        let canvasCreate: CanvasCreate
        let setTarget: SetTarget
        let animationNew: New
        let getPicture: GetPicture
        let loadData: LoadData
        let getSize: GetSize
        let setSize: SetSize
        let translate: Translate
        let canvasAdd: Push
        let setFrame: SetFrame
        let getTotalFrame: GetTotal
        let update: Step
        let draw: Draw
        let sync: Step
        let canvasDestroy: Step
        let animationDelete: Step
        let version: String
    }

    /// The API, or why it is not available.
    static let api: Result<API, ThorVGUnavailable> = load()

    struct ThorVGUnavailable: Error, CustomStringConvertible {
        var description: String
    }

    private static func load() -> Result<API, ThorVGUnavailable> {
        var path = ProcessInfo.processInfo.environment["KEYFRAME_THORVG_LIB"]
        if path == nil {
            let python = Process()
            python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            python.arguments = ["python3", "-c",
                                "import os, thorvg_python; print(os.path.dirname(thorvg_python.__file__))"]
            let pipe = Pipe()
            python.standardOutput = pipe
            python.standardError = FileHandle.nullDevice
            if (try? python.run()) != nil {
                python.waitUntilExit()
                let folder = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                    .trimmingCharacters(in: .whitespacesAndNewlines)
                if python.terminationStatus == 0, !folder.isEmpty {
                    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
                    if let name = names.sorted().first(where: { $0.hasPrefix("libthorvg") }) { path = folder + "/" + name }
                }
            }
        }
        guard let path else {
            return .failure(ThorVGUnavailable(description: "thorvg-python is not installed (pip install thorvg-python, "
                                              + "or set KEYFRAME_THORVG_LIB to libthorvg's path)"))
        }
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(ThorVGUnavailable(description: "cannot load \(path): \(String(cString: dlerror()))"))
        }
        func symbol<T>(_ name: String, _: T.Type) throws(ThorVGUnavailable) -> T {
            guard let address = dlsym(library, name) else {
                throw ThorVGUnavailable(description: "\(path) has no \(name)")
            }
            return unsafeBitCast(address, to: T.self)
        }
        do {
            let initialize = try symbol("tvg_engine_init", API.EngineInit.self)
            guard initialize(0) == 0 else { return .failure(ThorVGUnavailable(description: "tvg_engine_init failed")) }
            var major: UInt32 = 0, minor: UInt32 = 0, micro: UInt32 = 0
            var text: UnsafePointer<CChar>? = nil
            _ = try symbol("tvg_engine_version", API.Version.self)(&major, &minor, &micro, &text)
            return .success(API(
                canvasCreate: try symbol("tvg_swcanvas_create", API.CanvasCreate.self),
                setTarget: try symbol("tvg_swcanvas_set_target", API.SetTarget.self),
                animationNew: try symbol("tvg_lottie_animation_new", API.New.self),
                getPicture: try symbol("tvg_animation_get_picture", API.GetPicture.self),
                loadData: try symbol("tvg_picture_load_data", API.LoadData.self),
                getSize: try symbol("tvg_picture_get_size", API.GetSize.self),
                setSize: try symbol("tvg_picture_set_size", API.SetSize.self),
                translate: try symbol("tvg_paint_translate", API.Translate.self),
                canvasAdd: try symbol("tvg_canvas_add", API.Push.self),
                setFrame: try symbol("tvg_animation_set_frame", API.SetFrame.self),
                getTotalFrame: try symbol("tvg_animation_get_total_frame", API.GetTotal.self),
                update: try symbol("tvg_canvas_update", API.Step.self),
                draw: try symbol("tvg_canvas_draw", API.Draw.self),
                sync: try symbol("tvg_canvas_sync", API.Step.self),
                canvasDestroy: try symbol("tvg_canvas_destroy", API.Step.self),
                animationDelete: try symbol("tvg_animation_del", API.Step.self),
                version: text.map { String(cString: $0) } ?? "\(major).\(minor).\(micro)"))
        } catch {
            return .failure(error)
        }
    }

    private let api: API
    private let animation: OpaquePointer
    private let canvas: OpaquePointer
    /// The canvas: premultiplied words `a << 24 | b << 16 | g << 8 | r`, i.e. R, G, B, A bytes in memory. Its
    /// address is handed to ThorVG once, so it is allocated here rather than held in an array.
    private let buffer: UnsafeMutablePointer<UInt32>
    let width: Int
    let height: Int
    let frameCount: Int

    /// Loads `json` and fits the file's `w` × `h` into a `width` × `height` canvas, centred (as `keyframe render
    /// --size` and rlottie frame a stage); `nil` when ThorVG refuses the file.
    init?(json: [UInt8], width: Int, height: Int) {
        guard case .success(let api) = ThorVG.api, let animation = api.animationNew() else { return nil }
        self.api = api
        self.animation = animation
        self.width = width
        self.height = height
        buffer = UnsafeMutablePointer<UInt32>.allocate(capacity: width * height)
        buffer.initialize(repeating: 0, count: width * height)
        let picture = api.getPicture(animation)
        let loaded = json.withUnsafeBufferPointer { bytes in
            bytes.baseAddress!.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                api.loadData(picture, $0, UInt32(bytes.count), "lottie", nil, true)
            }
        }
        var fileWidth: Float = 0, fileHeight: Float = 0
        _ = api.getSize(picture, &fileWidth, &fileHeight)
        guard loaded == 0, fileWidth > 0, fileHeight > 0, let canvas = api.canvasCreate(1) else {
            _ = api.animationDelete(animation)
            buffer.deallocate()
            return nil
        }
        self.canvas = canvas
        let scale = min(Float(width) / fileWidth, Float(height) / fileHeight)
        _ = api.setSize(picture, fileWidth * scale, fileHeight * scale)
        _ = api.translate(picture, (Float(width) - fileWidth * scale) / 2, (Float(height) - fileHeight * scale) / 2)
        var total: Float = 0
        _ = api.getTotalFrame(animation, &total)
        frameCount = Int(total.rounded())
        guard api.setTarget(canvas, buffer, UInt32(width), UInt32(width), UInt32(height), 0) == 0,
            api.canvasAdd(canvas, picture) == 0
        else { return nil }
    }

    deinit {
        _ = api.canvasDestroy(canvas)  // owns the picture, which the animation hands out
        _ = api.animationDelete(animation)
        buffer.deallocate()
    }

    /// Draws `frame` (numbered from the file's in-point) over a cleared canvas into ``buffer``.
    func render(frame: Int) {
        _ = api.setFrame(animation, Float(frame))
        _ = api.update(canvas)
        _ = api.draw(canvas, true)
        _ = api.sync(canvas)
    }

    /// The canvas as bytes (R, G, B, A premultiplied on little-endian machines).
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: buffer, count: width * height * 4) }
}
