import ArgumentParser

@main
struct Keyframe: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Keyframe")
    func run() throws {}
}
