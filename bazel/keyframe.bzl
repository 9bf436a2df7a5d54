"""Bazel rule for Keyframe: one hermetic action per animation export.

keyframe_convert(
    name = "walker",
    main = "exports/walker/Animation.json",      # the export's main file
    srcs = glob(["exports/walker/**"]),           # every file of the export (atlases, LIBRARY/, ...)
)

produces `walker.json` (normalized keyframe JSON) next to the BUILD file. The action reads only the declared files,
passes only execroot-relative paths, needs no environment and no network, and writes the same bytes on every
machine, so a remote cache or remote executor can share it.
"""

def _keyframe_convert_impl(ctx):
    out = ctx.actions.declare_file(ctx.attr.out if ctx.attr.out else ctx.label.name + ".json")
    main = ctx.file.main
    args = ctx.actions.args()
    args.add("convert")
    args.add(main.path)
    args.add("-o", out)
    if ctx.attr.strict:
        args.add("--strict")
    if ctx.attr.clip:
        args.add("--clip", ctx.attr.clip)
    ctx.actions.run(
        executable = ctx.executable.keyframe,
        arguments = [args],
        inputs = depset([main] + ctx.files.srcs),
        outputs = [out],
        mnemonic = "KeyframeConvert",
        progress_message = "Keyframe: converting %s" % main.dirname,
        # Nothing from the host: the same action key, and the same bytes, everywhere.
        use_default_shell_env = False,
    )
    return [DefaultInfo(files = depset([out]))]

keyframe_convert = rule(
    implementation = _keyframe_convert_impl,
    doc = "Converts one Animate, DragonBones or Flump export into normalized keyframe JSON.",
    attrs = {
        "main": attr.label(
            doc = "The export's main file: Animation.json, *_ske.json / .dbbin, library.json / .xml, or a normalized JSON.",
            allow_single_file = True,
            mandatory = True,
        ),
        "srcs": attr.label_list(
            doc = "Every file of the export that the conversion may read (atlases, images, LIBRARY/ symbols).",
            allow_files = True,
        ),
        "out": attr.string(doc = "Output file name (default: <name>.json)."),
        "strict": attr.bool(doc = "Fail on any warning diagnostic.", default = False),
        "clip": attr.string(doc = "Keep only this clip."),
        "keyframe": attr.label(
            doc = "The keyframe executable.",
            default = Label("@keyframe_cli//:keyframe"),
            executable = True,
            allow_single_file = True,
            cfg = "exec",
        ),
    },
)
