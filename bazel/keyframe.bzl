"""Bazel rule for Keyframe: one hermetic action per export and output kind.

keyframe_convert(
    name = "walker",
    main = "exports/walker/Animation.json",      # the export's main file
    srcs = glob(["exports/walker/**"]),           # every file of the export (atlases, LIBRARY/, ...)
)

produces `walker.json` (normalized keyframe JSON) next to the BUILD file. With
`formats = ["normalized", "lottie", "core-animation"]` it also produces Lottie and Core Animation files, exactly as
`keyframe export --to FORMAT` writes them: with `clips = ["walk", "wave"]` the Lottie files are declared one per
clip (`walker.lottie/walk.json`, labels other targets can depend on), each written by its own action with
`--clip NAME -o FILE`, so a clip called `walk left` is `walker.lottie/walk left.json`; without, and always for Core Animation
(whose pictures are only known once the export is read), a folder (a tree artifact). `preview = True` adds
`walker.preview.png`, the contact sheet `keyframe batch --render-previews` makes. Each output kind is its own
action; every action reads only the declared files, passes only execroot-relative paths, needs no environment and
no network, prints problems as `PATH:LINE:COLUMN: error: ...` and writes the same bytes on every machine, so a
remote cache or remote executor can share it.
"""

# Player formats: the `keyframe export --to` value, its folder suffix and the action mnemonic.
_PLAYER_FORMATS = {
    "lottie": (".lottie", "KeyframeExportLottie"),
    "core-animation": (".ca", "KeyframeExportCoreAnimation"),
}

# Characters a declared clip file may have (Bazel labels take no `:`; `/` would make folders).
_CLIP_NAME_CHARACTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -_.+@#()[]{},;'!~=&%$/:\\"

def _clip_file(clip):
    """The file declared for a clip: `<clip>.json` with `/`, `:` and `\\` as `_`. Only a label: the export action
    is told to write exactly this file, so it need not be the name `keyframe export -o DIR/` would give."""
    for character in clip.elems():
        if character not in _CLIP_NAME_CHARACTERS:
            fail("clips: \"%s\" has characters Bazel cannot name a file with; leave clips out to get the folder" % clip)
    stem = clip.replace("/", "_").replace(":", "_").replace("\\", "_")
    if stem in ["", ".", ".."]:
        stem = "clip"
    return stem + ".json"

def _outputs(name, formats, clips):
    """Declares one Lottie file per listed clip, so each is a label (`:walker.lottie/walk.json`)."""
    if "lottie" not in formats:
        return {}
    outputs = {}
    seen = {}
    for index, clip in enumerate(clips):
        file = _clip_file(clip)
        if file in seen:
            fail("clips: \"%s\" and \"%s\" are both written as %s" % (seen[file], clip, file))
        seen[file] = clip
        outputs["lottie_clip_%d" % index] = "%s.lottie/%s" % (name, file)
    return outputs

def _run(ctx, inputs, arguments, outputs, mnemonic, message):
    ctx.actions.run(
        executable = ctx.executable.keyframe,
        arguments = [arguments],
        inputs = inputs,
        outputs = outputs,
        mnemonic = mnemonic,
        progress_message = message,
        # Nothing from the host: the same action key, and the same bytes, everywhere.
        use_default_shell_env = False,
    )
    return outputs

def _export_args(ctx, main, format):
    """`keyframe export MAIN --to FORMAT` with the rule's options, without -o and --clip."""
    args = ctx.actions.args()
    args.add("export")
    args.add(main.path)
    args.add("--to", format)
    if format == "lottie" and ctx.attr.profile:
        args.add("--profile", ctx.attr.profile)
    if ctx.attr.png:
        args.add("--png", ctx.attr.png)
    if ctx.attr.pretty:
        args.add("--pretty")
    if ctx.attr.strict:
        args.add("--strict")
    args.add("--quiet")
    args.add("--diagnostics-format", "build")
    return args

def _keyframe_convert_impl(ctx):
    main = ctx.file.main
    inputs = depset([main] + ctx.files.srcs)
    outputs = []
    for format in ctx.attr.formats:
        if format != "normalized" and format not in _PLAYER_FORMATS:
            fail("formats: unknown format \"%s\" (known: normalized, %s)" % (format, ", ".join(sorted(_PLAYER_FORMATS.keys()))))

    # The actions after the conversion take its output as an input, so they run only once the export has converted:
    # a broken export is reported once, by the conversion, not again by every export and preview action.
    after_conversion = inputs
    if "normalized" in ctx.attr.formats:
        out = ctx.actions.declare_file(ctx.attr.out if ctx.attr.out else ctx.label.name + ".json")
        after_conversion = depset([out], transitive = [inputs])
        args = ctx.actions.args()
        args.add("convert")
        args.add(main.path)
        args.add("-o", out)
        if ctx.attr.strict:
            args.add("--strict")
        if ctx.attr.clip:
            args.add("--clip", ctx.attr.clip)
        args.add("--diagnostics-format", "build")
        outputs += _run(ctx, inputs, args, [out], "KeyframeConvert", "Keyframe: converting %s" % main.dirname)

    for format in sorted(_PLAYER_FORMATS.keys()):
        if format not in ctx.attr.formats:
            continue
        suffix, mnemonic = _PLAYER_FORMATS[format]
        message = "Keyframe: exporting %s as %s" % (main.dirname, format)
        if format == "lottie" and ctx.attr.clips:
            # One action per declared clip file, told where to write it (`--clip NAME -o FILE`): the file is
            # where the rule declares it whatever the CLI would call it, so the two never have to agree on names.
            for index, clip in enumerate(ctx.attr.clips):
                out = getattr(ctx.outputs, "lottie_clip_%d" % index)
                args = _export_args(ctx, main, format)
                args.add("--clip", clip)
                args.add("-o", out)
                outputs += _run(ctx, after_conversion, args, [out], mnemonic, "%s (%s)" % (message, clip))
            continue
        # A trailing slash: always a folder with the files the CLI names, whatever the number of clips.
        outs = [ctx.actions.declare_directory(ctx.label.name + suffix)]
        args = _export_args(ctx, main, format)
        args.add("-o", outs[0].path + "/")
        if ctx.attr.clip:
            args.add("--clip", ctx.attr.clip)
        outputs += _run(ctx, after_conversion, args, outs, mnemonic, message)

    if ctx.attr.preview:
        sheet = ctx.actions.declare_file(ctx.label.name + ".preview.png")
        args = ctx.actions.args()
        args.add("render")
        args.add(main.path)
        args.add("--preview-sheet", sheet)
        args.add("--quiet")
        args.add("--diagnostics-format", "build")
        outputs += _run(ctx, after_conversion, args, [sheet], "KeyframePreview", "Keyframe: previewing %s" % main.dirname)

    if not outputs:
        fail("formats: name at least one of normalized, lottie, core-animation (or set preview)")
    return [DefaultInfo(files = depset(outputs))]

keyframe_convert = rule(
    implementation = _keyframe_convert_impl,
    doc = "Converts one Animate, DragonBones or Flump export into normalized keyframe JSON and, on request, Lottie and Core Animation files and a preview.",
    outputs = _outputs,
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
        "clips": attr.string_list(
            doc = "Lottie: export these clips, each declared as the file <name>.lottie/<clip>.json (without: every clip, as a folder).",
        ),
        "profile": attr.string(
            doc = "Lottie: the players to target, portable (default) or full (keyframe export --profile).",
            values = ["", "portable", "full"],
        ),
        "png": attr.string(
            doc = "The PNG preset of the pictures Lottie and Core Animation files carry: compact (default) or fast (keyframe export --png).",
            values = ["", "compact", "fast"],
        ),
        "pretty": attr.bool(doc = "Write the Lottie and Core Animation JSON indented (keyframe export --pretty).", default = False),
        "preview": attr.bool(doc = "Also write <name>.preview.png, the contact sheet keyframe batch --render-previews makes.", default = False),
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
