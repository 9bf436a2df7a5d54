// swift-tools-version:6.0
// Keyframe: converts Flash / Adobe Animate JSON timelines into one normalized keyframe model,
// plays it through a property-animator engine, renders it to PNG and exports it.
import Foundation
import PackageDescription

/// The pixel loops' targets compiled with optimization in debug builds, when `KEYFRAME_OPTIMIZE_PIXELS=1` is set (the
/// Makefile sets it for `make test` and `make check`): the test suite draws thousands of frames, which take 10–50× as
/// long unoptimized, while every other target keeps its debug checks. A package that depends on Keyframe never sets
/// it, so it never sees an unsafe flag.
let optimizePixels = ProcessInfo.processInfo.environment["KEYFRAME_OPTIMIZE_PIXELS"] == "1"
let pixelSwift: [SwiftSetting] = optimizePixels ? [.unsafeFlags(["-O"], .when(configuration: .debug))] : []
let pixelC: [CSetting] = optimizePixels ? [.unsafeFlags(["-O2"], .when(configuration: .debug))] : []

let package = Package(
    name: "Keyframe",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .executable(name: "keyframe", targets: ["keyframe"]),
        .library(name: "KeyframeJSON", targets: ["KeyframeJSON"]),
        .library(name: "KeyframeModel", targets: ["KeyframeModel"]),
        .library(name: "KeyframeImport", targets: ["KeyframeImport"]),
        .library(name: "KeyframeEngine", targets: ["KeyframeEngine"]),
        .library(name: "KeyframeRaster", targets: ["KeyframeRaster"]),
        .library(name: "KeyframePNG", targets: ["KeyframePNG"]),
        .library(name: "KeyframeAnimated", targets: ["KeyframeAnimated"]),
        .library(name: "KeyframeFiles", targets: ["KeyframeFiles"]),
        .library(name: "KeyframeRender", targets: ["KeyframeRender"]),
        .library(name: "KeyframeExport", targets: ["KeyframeExport"]),
        .library(name: "KeyframeVerify", targets: ["KeyframeVerify"]),
        .library(name: "KeyframePreview", targets: ["KeyframePreview"]),
        .library(name: "KeyframeDiff", targets: ["KeyframeDiff"]),
        // Loads Core Animation export files into CALayers (the CALayer part on Apple platforms only).
        .library(name: "KeyframeCoreAnimation", targets: ["KeyframeCoreAnimation"]),
        .library(name: "KeyframeBatch", targets: ["KeyframeBatch"]),
        .plugin(name: "KeyframeAssets", targets: ["KeyframeAssets"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // MARK: - Public API
        .target(name: "KeyframeJSON"),
        .target(name: "KeyframeModel", dependencies: ["KeyframeJSON"]),
        .target(name: "KeyframeImport", dependencies: ["KeyframeModel", "KeyframeJSON", "KeyframeFiles"],
                exclude: ["README.md"]),
        .target(name: "KeyframeEngine", dependencies: ["KeyframeModel", "KeyframeJSON"], exclude: ["README.md"]),
        .target(name: "KeyframeRaster", swiftSettings: pixelSwift),
        .target(name: "KeyframeFiles"),
        .target(name: "KeyframePNG", dependencies: ["CLibPNG", "KeyframeRaster", "KeyframeFiles"],
                swiftSettings: pixelSwift),
        // Animated GIF (an encoder of its own) and WebP (libwebp's animation encoder): the only target that links
        // libwebp.
        .target(name: "KeyframeAnimated", dependencies: ["CWebP", "KeyframeRaster"], swiftSettings: pixelSwift),
        .target(name: "KeyframeRender",
                dependencies: ["KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG", "KeyframeFiles"],
                exclude: ["README.md"], swiftSettings: pixelSwift),
        .target(name: "KeyframeExport",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG",
                               "KeyframeRender", "KeyframeFiles"],
                exclude: ["README.md"]),
        .target(name: "KeyframeVerify",
                dependencies: ["KeyframeJSON", "KeyframeRaster", "KeyframePNG", "KeyframeFiles"]),
        .target(name: "KeyframePreview",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG"]),
        // `keyframe diff`: two versions of a document compared by structure and motion, reported as text, JSON or a
        // page with the frames side by side.
        .target(name: "KeyframeDiff",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG",
                               "KeyframeRender"]),
        // Loads Core Animation export files: LayerTreeDescription (what each layer and animation gets; compiled and
        // tested everywhere) and KeyframeLayerTree (the CALayer copy; Apple platforms only). Foundation only.
        .target(name: "KeyframeCoreAnimation", dependencies: ["KeyframeJSON"]),
        .target(name: "KeyframeBatch",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeRender", "KeyframeExport",
                               "KeyframeFiles", "KeyframeVerify", "KeyframePNG", "KeyframeRaster"],
                exclude: ["README.md"]),
        .executableTarget(
            name: "keyframe",
            dependencies: [
                "KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeRaster",
                "KeyframePNG", "KeyframeRender", "KeyframeExport", "KeyframeFiles", "KeyframeVerify", "KeyframePreview",
                "KeyframeDiff", "KeyframeBatch", "KeyframeBenchmarks", "KeyframeAnimated",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // `keyframe bench` and the Lottie race (Benchmarks/): measurements with baselines taken in the same run. Not a
        // product, and its folder (Sources/Benchmarks) is apart from the library targets': the libraries ship only
        // what they are for.
        .target(name: "KeyframeBenchmarks",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeRaster",
                               "KeyframePNG", "KeyframeRender", "KeyframeFiles", "KeyframeExport", "KeyframeBatch",
                               "KeyframePreview"],
                path: "Sources/Benchmarks"),

        // SwiftPM build-tool plugin: converts exports in a target's folder into bundled resources.
        .plugin(name: "KeyframeAssets", capability: .buildTool(), dependencies: ["keyframe"]),

        // MARK: - Examples
        // Small programs using the libraries as an app or a build would (Examples/README.md); the README's snippets
        // are their code, and `ExamplesTests` (KeyframeCLITests) builds and runs each one.
        .executableTarget(name: "ImportAndSample", dependencies: ["KeyframeImport", "KeyframeModel", "KeyframeEngine"],
                          path: "Examples/ImportAndSample"),
        .executableTarget(name: "AnimatorsOnAClock",
                          dependencies: ["KeyframeImport", "KeyframeModel", "KeyframeEngine"],
                          path: "Examples/AnimatorsOnAClock"),
        .executableTarget(name: "ExportToLottie", dependencies: ["KeyframeImport", "KeyframeExport", "KeyframeFiles"],
                          path: "Examples/ExportToLottie"),
        .executableTarget(name: "VerifyFrames", dependencies: ["KeyframeImport", "KeyframeRender", "KeyframeVerify"],
                          path: "Examples/VerifyFrames"),

        // MARK: - Implementation details
        // libpng behind one door: only KeyframePNG imports it. The shim owns setjmp/longjmp.
        // It also calls zlib (the deflate of archives such as dotLottie), which libpng links but does not re-export.
        .target(name: "CLibPNG", dependencies: ["CPNG16"], cSettings: pixelC, linkerSettings: [.linkedLibrary("z")]),
        // libpng 1.6 and zlib from the system, located with pkg-config (`libpng16`): apt's libpng-dev on Linux,
        // Homebrew's libpng on macOS.
        .systemLibrary(
            name: "CPNG16",
            pkgConfig: "libpng16",
            providers: [.apt(["libpng-dev"]), .brew(["libpng"])]),

        // libwebp and libwebpmux from the system (`libwebpmux`, which requires `libwebp`): apt's libwebp-dev on
        // Linux, Homebrew's webp on macOS. Only KeyframeAnimated imports it.
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),

        // MARK: - Tests
        .target(name: "KeyframeTestSupport", dependencies: ["KeyframeModel", "KeyframeRaster", "KeyframePNG"],
                path: "Tests/KeyframeTestSupport"),
        // Every input surface as a function of bytes: called by the fuzzers (Fuzz/) and by KeyframeRobustnessTests,
        // which replays the committed fuzz findings and injects faults at the file-system edges.
        .target(name: "KeyframeFuzzHarness",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeRaster",
                               "KeyframePNG", "KeyframeRender"],
                path: "Tests/KeyframeFuzzHarness"),
        .testTarget(name: "KeyframeRobustnessTests",
                    dependencies: ["KeyframeFuzzHarness", "KeyframeImport", "KeyframeFiles", "KeyframePNG", "KeyframeRaster",
                                   "KeyframeModel", "KeyframeRender", "KeyframeJSON", "KeyframeTestSupport"],
                    exclude: ["FuzzRegressions"]),
        .testTarget(name: "KeyframeModelTests",
                    dependencies: ["KeyframeModel", "KeyframeJSON", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframeImportTests",
                    dependencies: ["KeyframeImport", "KeyframeModel", "KeyframeJSON", "KeyframeEngine", "KeyframeRaster",
                                   "KeyframeRender", "KeyframeTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "KeyframeEngineTests",
                    dependencies: ["KeyframeEngine", "KeyframeModel", "KeyframeImport", "KeyframeTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "KeyframeRasterTests", dependencies: ["KeyframeRaster", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframePNGTests", dependencies: ["KeyframePNG", "KeyframeRaster", "KeyframeTestSupport"],
                    exclude: ["Fixtures"]),
        .testTarget(name: "KeyframeRenderTests",
                    dependencies: ["KeyframeRender", "KeyframeImport", "KeyframeModel", "KeyframeEngine", "KeyframeRaster",
                                   "KeyframePNG", "KeyframeTestSupport"],
                    exclude: ["Golden", "Fixtures"]),
        .testTarget(name: "CoreAnimationExportTests",
                    dependencies: ["KeyframeExport", "KeyframeCoreAnimation", "KeyframeImport", "KeyframeModel", "KeyframeEngine", "KeyframeJSON",
                                   "KeyframeRender", "KeyframeRaster", "KeyframePNG", "KeyframeTestSupport"],
                    exclude: ["Golden"]),
        .testTarget(name: "KeyframeCLITests",
                    dependencies: ["keyframe", "KeyframeTestSupport", "KeyframePNG", "KeyframeRaster",
                                   "ImportAndSample", "AnimatorsOnAClock", "ExportToLottie", "VerifyFrames"]),
        .testTarget(name: "KeyframePreviewTests",
                    dependencies: ["KeyframePreview", "KeyframeEngine", "KeyframeImport", "KeyframeModel",
                                   "KeyframePNG", "KeyframeRaster", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframeBenchmarksTests",
                    dependencies: ["KeyframeBenchmarks", "KeyframeExport", "KeyframeImport", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframeDiffTests",
                    dependencies: ["KeyframeDiff", "KeyframeModel", "KeyframeImport", "KeyframeRender", "KeyframeJSON",
                                   "KeyframePNG", "KeyframeRaster", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframeVerifyTests",
                    dependencies: ["KeyframeVerify", "KeyframeRaster", "KeyframePNG", "KeyframeTestSupport"]),
        // rlottie (librlottie-dev) plays Keyframe's Lottie exports in tests; no shipping target links it.
        .systemLibrary(name: "CRLottie", path: "Tests/CRLottie", pkgConfig: "rlottie",
                       providers: [.apt(["librlottie-dev"])]),
        .testTarget(name: "KeyframeLottieTests",
                    dependencies: ["KeyframeExport", "KeyframeImport", "KeyframeModel", "KeyframeEngine", "KeyframeRaster",
                                   "KeyframeRender", "KeyframePNG", "KeyframeJSON", "CRLottie", "KeyframeTestSupport"],
                    // Read from the source tree by path (and rewritten in the tests' record modes), not resources.
                    exclude: ["ThorVGFrameFigures.json", "LottieWebFrameFigures.json"]),
        .testTarget(name: "SpriteSheetExportTests",
                    dependencies: ["KeyframeExport", "KeyframeImport", "KeyframeModel", "KeyframeRender", "KeyframePNG",
                                   "KeyframeRaster", "KeyframeFiles", "KeyframeTestSupport"],
                    exclude: ["read_sheet.py", "tat_read_sheet.py", "godot_frames.gd"]),
        .testTarget(name: "KeyframeBatchTests",
                    dependencies: ["KeyframeBatch", "KeyframeExport", "KeyframeImport", "KeyframeModel", "KeyframeJSON",
                                   "KeyframeTestSupport", "keyframe", "KeyframePNG", "KeyframeRaster", "KeyframeFiles"]),
    ],
    swiftLanguageModes: [.v6]
)
