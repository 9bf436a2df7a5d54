// swift-tools-version:6.0
// Keyframe's libFuzzer targets, a package of their own so that building or testing Keyframe never builds them.
// Build (from the repository root): `make fuzz`; or by hand, one fuzzer:
//   swift build --package-path Fuzz --scratch-path Fuzz/.build -c release \
//     -Xswiftc -sanitize=fuzzer,address -Xcc -fsanitize=fuzzer-no-link,address --product fuzz-json
// Each fuzzer calls one surface of KeyframeFuzzHarness (Tests/KeyframeFuzzHarness in the main package, where
// KeyframeRobustnessTests replays committed inputs through it; Sources/KeyframeFuzzHarness here is a symbolic link to
// it, so the main package need not ship the harness as a product).
import PackageDescription

/// (surface, module): the fuzzer executable is `fuzz-<surface>`, its entry point `<module>_main`.
let fuzzers: [(surface: String, module: String)] = [
    ("json", "FuzzJSON"),
    ("animate", "FuzzAnimate"),
    ("spritemap", "FuzzSpritemap"),
    ("dragonbones", "FuzzDragonBones"),
    ("dbbin", "FuzzDbbin"),
    ("flump-json", "FuzzFlumpJSON"),
    ("flump-xml", "FuzzFlumpXML"),
    ("sheet-json", "FuzzSheetJSON"),
    ("sheet-xml", "FuzzSheetXML"),
    ("document", "FuzzDocument"),
    ("script", "FuzzScript"),
    ("png", "FuzzPNG"),
    ("png-encode", "FuzzPNGEncode"),
    ("render", "FuzzRender"),
]

let package = Package(
    name: "KeyframeFuzz",
    platforms: [.macOS(.v13)],
    products: fuzzers.map { .executable(name: "fuzz-\($0.surface)", targets: [$0.module]) },
    dependencies: [
        .package(name: "Keyframe", path: ".."),
    ],
    targets: [
        // libFuzzer's LLVMFuzzerRunDriver, declared for Swift.
        .target(name: "CFuzzDriver"),
        // Every input surface as a function of bytes (the main package's Tests/KeyframeFuzzHarness, linked).
        .target(name: "KeyframeFuzzHarness",
                dependencies: ["KeyframeJSON", "KeyframeModel", "KeyframeImport", "KeyframeEngine", "KeyframeRaster",
                               "KeyframePNG", "KeyframeRender"].map { .product(name: $0, package: "Keyframe") }),
    ] + fuzzers.map {
        .executableTarget(
            name: $0.module,
            dependencies: ["CFuzzDriver", "KeyframeFuzzHarness"],
            swiftSettings: [.unsafeFlags(["-parse-as-library"])])
    },
    swiftLanguageModes: [.v6]
)
