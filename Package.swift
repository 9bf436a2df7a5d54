// swift-tools-version:6.0
// Keyframe: converts Flash / Adobe Animate JSON timelines into one normalized keyframe model,
// plays it through a property-animator engine, renders it to PNG and exports it.
import PackageDescription

let package = Package(
    name: "Keyframe",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "keyframe", targets: ["keyframe"]),
        .library(name: "KeyframeJSON", targets: ["KeyframeJSON"]),
        .library(name: "KeyframeModel", targets: ["KeyframeModel"]),
        .library(name: "KeyframeImport", targets: ["KeyframeImport"]),
        .library(name: "KeyframeEngine", targets: ["KeyframeEngine"]),
        .library(name: "KeyframeRaster", targets: ["KeyframeRaster"]),
        .library(name: "KeyframePNG", targets: ["KeyframePNG"]),
        .library(name: "KeyframeFiles", targets: ["KeyframeFiles"]),
        .library(name: "KeyframeRender", targets: ["KeyframeRender"]),
        .library(name: "KeyframeExport", targets: ["KeyframeExport"]),
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
        .target(name: "KeyframeImport", dependencies: ["KeyframeModel", "KeyframeJSON"]),
        .target(name: "KeyframeEngine", dependencies: ["KeyframeModel", "KeyframeJSON"]),
        .target(name: "KeyframeRaster"),
        .target(name: "KeyframeFiles"),
        .target(name: "KeyframePNG", dependencies: ["CLibPNG", "KeyframeRaster", "KeyframeFiles"]),
        .target(name: "KeyframeRender",
                dependencies: ["KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG"]),
        .target(name: "KeyframeExport", dependencies: ["KeyframeModel", "KeyframeEngine", "KeyframeRaster", "KeyframePNG", "KeyframeRender"]),
        .target(name: "KeyframeBatch",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeRender", "KeyframeExport",
                               "KeyframeFiles"]),
        .executableTarget(
            name: "keyframe",
            dependencies: [
                "KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeRaster",
                "KeyframePNG", "KeyframeRender", "KeyframeExport", "KeyframeFiles", "KeyframeBatch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]),

        // SwiftPM build-tool plugin: converts exports in a target's folder into bundled resources.
        .plugin(name: "KeyframeAssets", capability: .buildTool(), dependencies: ["keyframe"]),

        // MARK: - Implementation details
        // libpng behind one door: only KeyframePNG imports it. The shim owns setjmp/longjmp.
        .target(
            name: "CLibPNG",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),

        // MARK: - Tests
        .target(name: "KeyframeTestSupport", dependencies: ["KeyframeModel", "KeyframeRaster"],
                path: "Tests/KeyframeTestSupport"),
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
                    exclude: ["Golden"]),
        .testTarget(name: "KeyframeCLITests", dependencies: ["keyframe", "KeyframeTestSupport"]),
        .testTarget(name: "KeyframeBatchTests",
                    dependencies: ["KeyframeBatch", "KeyframeExport", "KeyframeImport", "KeyframeModel", "KeyframeJSON",
                                   "KeyframeTestSupport", "keyframe"]),
    ],
    swiftLanguageModes: [.v6]
)
