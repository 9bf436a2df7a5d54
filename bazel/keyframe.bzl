"""Bazel rule for Keyframe: one hermetic action per animation export.

keyframe_convert(
    name = "walker",
    main = "exports/walker/Animation.json",      # the export's main file
    srcs = glob(["exports/walker/**"]),           # every file of the export (atlases, LIBRARY/, ...)
)

produces `walker.json` (normalized keyframe JSON) next to the BUILD file. With
`formats = ["normalized", "lottie", "core-animation"]` it also produces the folders `walker.lottie/` and `walker.ca/`
(Bazel tree artifacts) holding one file per clip, `<clip>.json`, exactly as `keyframe export --to FORMAT -o DIR/`
writes them; a folder because the clips are only known once the export is read. Each format is its own action. Every
action reads only the declared files, passes only execroot-relative paths, needs no environment and no network, and
writes the same bytes on every machine, so a remote cache or remote executor can share it.
"""

# Player formats: the `keyframe export --to` value, its folder suffix and the action mnemonic.
_PLAYER_FORMATS = {
    "lottie": (".lottie", "KeyframeExportLottie"),
    "core-animation": (".ca", "KeyframeExportCoreAnimation"),
}

def _keyframe_convert_impl(ctx):
    main = ctx.file.main
    inputs = depset([main] + ctx.files.srcs)
    outputs = []
    for format in ctx.attr.formats:
        if format != "normalized" and format not in _PLAYER_FORMATS:
            fail("formats: unknown format \"%s\" (known: normalized, %s)" % (format, ", ".join(sorted(_PLAYER_FORMATS.keys()))))
    if "normalized" in ctx.attr.formats:
        out = ctx.actions.declare_file(ctx.attr.out if ctx.attr.out else ctx.label.name + ".json")
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
            inputs = inputs,
            outputs = [out],
            mnemonic = "KeyframeConvert",
            progress_message = "Keyframe: converting %s" % main.dirname,
            # Nothing from the host: the same action key, and the same bytes, everywhere.
            use_default_shell_env = False,
        )
        outputs.append(out)
    for format in sorted(_PLAYER_FORMATS.keys()):
        if format not in ctx.attr.formats:
            continue
        suffix, mnemonic = _PLAYER_FORMATS[format]
        folder = ctx.actions.declare_directory(ctx.label.name + suffix)
        args = ctx.actions.args()
        args.add("export")
        args.add(main.path)
        args.add("--to", format)
        # A trailing slash: always a folder with <clip>.json, whatever the number of clips.
        args.add("-o", folder.path + "/")
        if ctx.attr.strict:
            args.add("--strict")
        if ctx.attr.clip:
            args.add("--clip", ctx.attr.clip)
        ctx.actions.run(
            executable = ctx.executable.keyframe,
            arguments = [args],
            inputs = inputs,
            outputs = [folder],
            mnemonic = mnemonic,
            progress_message = "Keyframe: exporting %s as %s" % (main.dirname, format),
            use_default_shell_env = False,
        )
        outputs.append(folder)
    if not outputs:
        fail("formats: name at least one of normalized, lottie, core-animation")
    return [DefaultInfo(files = depset(outputs))]

keyframe_convert = rule(
    implementation = _keyframe_convert_impl,
    doc = "Converts one Animate, DragonBones or Flump export into normalized keyframe JSON and, on request, Lottie and Core Animation files.",
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
        "out": attr.string(doc = "Output file name of the normalized JSON (default: <name>.json)."),
        "formats": attr.string_list(
            doc = "What to produce: normalized (<name>.json), lottie (<name>.lottie/<clip>.json), core-animation (<name>.ca/<clip>.json).",
            default = ["normalized"],
        ),
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
