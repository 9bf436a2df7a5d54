// swift-tools-version:6.0
// Keyframe's benchmarks that need software Keyframe itself must not depend on: a package of its own, so that building
// or testing Keyframe never needs librlottie. Run from the repository root: `make bench-lottie-race`, or
//   swift run --package-path Benchmarks --scratch-path Benchmarks/.build -c release lottie-race [--help]
// (needs librlottie-dev: pkg-config `rlottie`).
import PackageDescription

let package = Package(
    name: "KeyframeBenchmarks",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "lottie-race", targets: ["LottieRace"]),
    ],
    dependencies: [
        .package(name: "Keyframe", path: ".."),
    ],
    targets: [
        // rlottie's C API (`rlottie_capi.h`), from the system via pkg-config.
        .systemLibrary(name: "CRLottieRace", pkgConfig: "rlottie",
                       providers: [.apt(["librlottie-dev"]), .brew(["rlottie"])]),
        .executableTarget(
            name: "LottieRace",
            dependencies: [
                "CRLottieRace",
                .product(name: "KeyframeModel", package: "Keyframe"),
                .product(name: "KeyframeImport", package: "Keyframe"),
                .product(name: "KeyframeRaster", package: "Keyframe"),
                .product(name: "KeyframePNG", package: "Keyframe"),
                .product(name: "KeyframeRender", package: "Keyframe"),
                .product(name: "KeyframeExport", package: "Keyframe"),
            ]),
    ],
    swiftLanguageModes: [.v6]
)
