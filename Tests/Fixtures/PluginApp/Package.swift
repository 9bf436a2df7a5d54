// swift-tools-version:6.0
// A small app that keeps animation exports in its sources; Keyframe's build-tool plugin converts them into
// resources on every build. Built and run by KeyframeBatchTests.PluginFixtureTests.
import PackageDescription

let package = Package(
    name: "PluginApp",
    dependencies: [.package(name: "Keyframe", path: "../../..")],
    targets: [
        .executableTarget(
            name: "PluginApp",
            exclude: ["Exports", "keyframe-assets.json"],
            plugins: [.plugin(name: "KeyframeAssets", package: "Keyframe")]),
    ],
    swiftLanguageModes: [.v6]
)
