# Loads a Keyframe SpriteFrames resource with Godot 3's own loader and writes every frame it describes, rebuilt at
# its full size from the page the AtlasTexture names (region, margin), as PNG files for the test to compare with
# `keyframe render`'s. Usage: godot3-server --path PROJECT -s godot_frames.gd (reads res://sheet.tres, writes
# frames/<n>.png and frames/list.txt with "<animation>\t<frame>\t<n>" lines).
extends SceneTree

func _init():
	var frames = load("res://sheet.tres")
	if frames == null or not (frames is SpriteFrames):
		print("cannot load res://sheet.tres as SpriteFrames")
		quit(1)
		return
	var dir = Directory.new()
	dir.make_dir("res://frames")
	var pages = {}
	var list = File.new()
	list.open("res://frames/list.txt", File.WRITE)
	var count = 0
	for animation in frames.get_animation_names():
		for index in range(frames.get_frame_count(animation)):
			var texture = frames.get_frame(animation, index)
			var path = texture.atlas.resource_path
			if not pages.has(path):
				# The page's pixels as stored (the imported texture may have its transparent pixels' colour changed).
				var page = Image.new()
				page.load(ProjectSettings.globalize_path(path))
				page.convert(Image.FORMAT_RGBA8)
				pages[path] = page
			var size = texture.get_size()
			var frame = Image.new()
			frame.create(int(size.x), int(size.y), false, Image.FORMAT_RGBA8)
			frame.blit_rect(pages[path], texture.region, texture.margin.position)
			frame.save_png("res://frames/%d.png" % count)
			list.store_line("%s\t%d\t%d" % [animation, index, count])
			count += 1
	list.close()
	print("%d frames written" % count)
	quit(0)
