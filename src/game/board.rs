//! The board view: squares in the chosen theme, coordinates, tinted regions (palaces, hills,
//! goals), a sprite for every piece entity of the rules placed from its `Location`, pockets,
//! highlights (last move, check, selection, legal targets as dots and capture rings), flip, and
//! the mouse: presses and releases become [`BoardInput`]s, and a pressed piece follows the
//! cursor until it is released.

use bevy::asset::RenderAssetUsages;
use bevy::prelude::*;
use bevy::render::render_resource::{Extent3d, TextureDimension, TextureFormat};
use bevy::window::PrimaryWindow;

use super::pieces::{PieceImages, image_name, piece_image_name};
use super::settings::{PieceSet, Settings};
use super::shared::{
    BoardInput, BoardView, Browse, BrowseTo, CheckSquares, Clocks, GameSystems, LayoutVersion, Origin, PendingChoice, PositionVersion,
    SQUARE, Selection, side_width, square_at, square_centre,
};
use crate::presets::FactLook;
use crate::rules::{Board, EndCondition, Geometry, Location, MoveLog, Owner, Piece, PieceType, Promoted, Rules, Side, Square};

/// Everything drawn for the layout (squares, coordinates, tints); despawned on re-layout.
#[derive(Component)]
struct Decor;

/// Highlights and target marks; redrawn when the position or the selection changes.
#[derive(Component)]
struct Mark;

/// A piece drawn in a pocket; pressing it selects that piece type for a drop.
#[derive(Component)]
struct PocketSlot {
    kind: PieceType,
    side: Side,
    /// Where it rests (it follows the cursor while dragged).
    home: Vec2,
}

/// A pocket's tile or count, drawn with its pieces.
#[derive(Component)]
struct PocketTile;

/// A piece's sprite is drawn for this type and side (to redraw on promotion or capture).
#[derive(Component, PartialEq, Eq)]
struct Drawn(PieceType, Side);

/// Generated images: target dot, capture ring, check glow.
#[derive(Resource, Default)]
struct MarkImages {
    dot: Handle<Image>,
    ring: Handle<Image>,
    glow: Handle<Image>,
    disc: Handle<Image>,
    halo: Handle<Image>,
    duck: Handle<Image>,
}

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.19, 0.18, 0.17)));
    app.init_resource::<BoardView>();
    app.init_resource::<super::settings::AnimationSpeed>();
    app.init_resource::<LayoutVersion>();
    app.init_resource::<MarkImages>();
    app.add_systems(Startup, (make_mark_images, spawn_camera));
    app.add_systems(Update, mouse_to_inputs.in_set(GameSystems::Input));
    app.add_systems(
        Update,
        (
            fit_camera,
            layout_board
                .run_if(resource_changed::<LayoutVersion>.or_else(resource_changed::<BoardView>).or_else(resource_changed::<Settings>)),
            dress_pieces,
            place_pieces,
            draw_browsed,
            glide,
            draw_pockets,
            draw_marks,
            draw_facts,
            draw_poison,
            follow_cursor,
        )
            .chain()
            .in_set(GameSystems::Present),
    );
}

/// The distance between pocket pieces: a square, or less where more types are held than the
/// board has files.
fn pocket_pitch(g: Geometry, held: usize) -> f32 {
    SQUARE * (g.files as f32 / held.max(1) as f32).min(1.0)
}

/// Where the `index`th of `held` pocket pieces of `side` rests: a row one square beyond the
/// board's edge on that side, from the first file on.
fn pocket_centre(g: Geometry, view: BoardView, side: Side, index: usize, held: usize) -> Vec2 {
    let below = side == view.bottom;
    let y = (g.ranks as f32 / 2.0 + 0.62) * SQUARE * if below { -1.0 } else { 1.0 };
    let pitch = pocket_pitch(g, held);
    let x = -(g.files as f32) / 2.0 * SQUARE + pitch * (index as f32 + 0.5);
    Vec2::new(x, y)
}

fn rgba_image(size: u32, pixel: impl Fn(f32, f32) -> [u8; 4]) -> Image {
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (x as f32 + 0.5 - size as f32 / 2.0, y as f32 + 0.5 - size as f32 / 2.0);
            data.extend_from_slice(&pixel((dx * dx + dy * dy).sqrt() / (size as f32 / 2.0), 0.0));
        }
    }
    square_image(size, data)
}

/// A square RGBA image of `size` pixels a side from its bytes.
fn square_image(size: u32, data: Vec<u8>) -> Image {
    Image::new(
        Extent3d { width: size, height: size, depth_or_array_layers: 1 },
        TextureDimension::D2,
        data,
        TextureFormat::Rgba8UnormSrgb,
        RenderAssetUsages::default(),
    )
}

/// Anti-aliased coverage of a band between radii `inner` and `outer` (fractions of the half size).
fn band(d: f32, inner: f32, outer: f32) -> f32 {
    let px = 1.0 / 64.0;
    ((outer - d) / px).clamp(0.0, 1.0) * ((d - inner) / px).clamp(0.0, 1.0)
}

fn make_mark_images(
    mut images: ResMut<Assets<Image>>,
    mut marks: ResMut<MarkImages>,
    mut particle: ResMut<super::particles::ParticleImage>,
) {
    let grey = |a: f32| [20, 85, 30, (a * 255.0) as u8];
    marks.dot = images.add(rgba_image(128, |d, _| grey(band(d, -1.0, 0.28) * 0.5)));
    marks.ring = images.add(rgba_image(128, |d, _| grey(band(d, 0.8, 1.0) * 0.5)));
    marks.glow = images.add(rgba_image(128, |d, _| {
        let a = (1.0 - d).clamp(0.0, 1.0);
        [255, 0, 0, (a * a * 230.0) as u8]
    }));
    marks.halo = images.add(rgba_image(128, |d, _| [255, 255, 255, (band(d, 0.86, 0.96) * 255.0) as u8]));
    marks.disc = images.add(rgba_image(128, |d, _| [255, 255, 255, (band(d, -1.0, 0.82) * 255.0) as u8]));
    particle.0 = Some(images.add(rgba_image(32, |d, _| [255, 255, 255, (band(d * 1.1, -1.0, 0.9) * 255.0) as u8])));
    marks.duck = images.add(duck_image(128));
}

/// The duck of Duck chess, drawn from ellipses: a yellow body and head, a darker wing, an
/// orange beak and a black eye, each with a brown outline.
fn duck_image(size: u32) -> Image {
    // Coverage of an ellipse (centre, radii) at (x, y), anti-aliased over about a pixel.
    let ellipse = |x: f32, y: f32, cx: f32, cy: f32, rx: f32, ry: f32| {
        let d = (((x - cx) / rx).powi(2) + ((y - cy) / ry).powi(2)).sqrt();
        ((1.0 - d) * rx.min(ry) * size as f32 / 2.0).clamp(0.0, 1.0)
    };
    let mut data = Vec::with_capacity((size * size * 4) as usize);
    for py in 0..size {
        for px in 0..size {
            let (x, y) = ((px as f32 + 0.5) / size as f32 * 2.0 - 1.0, (py as f32 + 0.5) / size as f32 * 2.0 - 1.0);
            let mut rgba = [0.0f32; 4];
            let mut paint = |cover: f32, [r, g, b]: [f32; 3]| {
                for (c, v) in rgba.iter_mut().zip([r, g, b]) {
                    *c = *c * (1.0 - cover) + v * cover;
                }
                rgba[3] = rgba[3] * (1.0 - cover) + cover;
            };
            let outline = [110.0, 70.0, 10.0];
            let yellow = [250.0, 205.0, 45.0];
            paint(ellipse(x, y, 0.1, 0.32, 0.82, 0.52), outline);
            paint(ellipse(x, y, -0.3, -0.3, 0.38, 0.38), outline);
            paint(ellipse(x, y, -0.72, -0.2, 0.26, 0.14), outline);
            paint(ellipse(x, y, -0.72, -0.2, 0.21, 0.09), [245.0, 130.0, 20.0]);
            paint(ellipse(x, y, 0.1, 0.32, 0.76, 0.46), yellow);
            paint(ellipse(x, y, -0.3, -0.3, 0.32, 0.32), yellow);
            paint(ellipse(x, y, 0.22, 0.3, 0.42, 0.2), [228.0, 172.0, 25.0]);
            paint(ellipse(x, y, -0.36, -0.38, 0.07, 0.07), [20.0, 20.0, 20.0]);
            // The colours were blended over transparent black: divide the coverage back out.
            let a = rgba[3].max(1e-6);
            data.extend_from_slice(&[(rgba[0] / a) as u8, (rgba[1] / a) as u8, (rgba[2] / a) as u8, (rgba[3] * 255.0) as u8]);
        }
    }
    square_image(size, data)
}

fn spawn_camera(mut commands: Commands) {
    commands.spawn((Camera2d, Projection::Orthographic(OrthographicProjection::default_2d())));
}

/// Keeps the board, its coordinates and pockets in view left of the side panel, at any window
/// size: the camera spans the whole window (the panel draws over its right part), is scaled so
/// the board fits the rest, and is shifted so the board is centred in it.
fn fit_camera(
    windows: Query<&Window, With<PrimaryWindow>>,
    board: Res<Board>,
    rules: Res<Rules>,
    mut cameras: Query<(&mut Projection, &mut Transform), With<Camera2d>>,
    (view, clocks): (Res<BoardView>, Res<Clocks>),
) {
    let side = side_width(&view, clocks.clock.is_some());
    let Ok(window) = windows.single() else { return };
    let Ok((mut projection, mut transform)) = cameras.single_mut() else { return };
    let g = board.geometry;
    let pockets = if rules.0.drops.is_some() || rules.0.switches.gating || rules.0.switches.fixed_gating { 2.1 } else { 0.0 };
    let (need_w, need_h) = ((g.files as f32 + 0.6) * SQUARE, (g.ranks as f32 + 0.6 + pockets) * SQUARE);
    let (avail_w, avail_h) = ((window.width() - side).max(50.0), window.height().max(50.0));
    let scale = (need_w / avail_w).max(need_h / avail_h);
    if let Projection::Orthographic(o) = &mut *projection {
        if !matches!(o.scaling_mode, bevy::camera::ScalingMode::WindowSize) {
            o.scaling_mode = bevy::camera::ScalingMode::WindowSize;
        }
        if o.scale != scale {
            o.scale = scale;
        }
    }
    let x = side / 2.0 * scale;
    if transform.translation.x != x {
        transform.translation.x = x;
    }
}

/// Squares, coordinates (lichess style: inside the edge squares) and region tints.
fn layout_board(
    mut commands: Commands,
    board: Res<Board>,
    rules: Res<Rules>,
    view: Res<BoardView>,
    settings: Res<Settings>,
    old: Query<Entity, With<Decor>>,
    mut pieces: Query<&mut Location, With<Piece>>,
) {
    for e in &old {
        commands.entity(e).despawn();
    }
    // Every piece is placed again in the new layout.
    for mut loc in &mut pieces {
        loc.set_changed();
    }
    let g = board.geometry;
    let view = *view;
    if rules.0.look.intersections {
        layout_intersections(&mut commands, &rules.0, view, &settings);
        return;
    }
    let (light, dark) = settings.theme.colours();
    let tinted = region_squares(&rules.0);
    for sq in g.squares() {
        let is_dark = (g.file(sq) + g.rank(sq)).is_multiple_of(2);
        let mut colour = if is_dark { dark } else { light };
        if tinted.contains(&sq) {
            colour = colour.mix(&Color::srgb_u8(120, 160, 190), 0.35);
        }
        // A wall of the board is a hole in it.
        if rules.0.walls.contains(&sq) {
            colour = dark.mix(&Color::BLACK, 0.8);
        }
        let at = square_centre(g, view, sq);
        commands.spawn((Decor, Sprite::from_color(colour, Vec2::splat(SQUARE)), Transform::from_xyz(at.x, at.y, 0.0)));
        // Coordinates on the bottom rank and the left file as seen, in the other square colour.
        let ink = if is_dark { light } else { dark };
        let (seen_f, seen_r) = {
            let c = (at / SQUARE) + Vec2::new(g.files as f32, g.ranks as f32) / 2.0 - 0.5;
            (c.x.round() as i32, c.y.round() as i32)
        };
        let label = |text: String, offset: Vec2, anchor: bevy::sprite::Anchor| {
            (
                Decor,
                Text2d::new(text),
                TextFont { font_size: FontSize::Px(SQUARE * 0.2), ..default() },
                TextColor(ink),
                anchor,
                Transform::from_xyz(at.x + offset.x, at.y + offset.y, 0.5),
            )
        };
        if seen_r == 0 && settings.coordinates {
            let file = (b'a' + g.file(sq)) as char;
            commands.spawn(label(file.to_string(), Vec2::new(SQUARE * 0.45, -SQUARE * 0.47), bevy::sprite::Anchor::BOTTOM_RIGHT));
        }
        if seen_f == 0 && settings.coordinates {
            let rank = g.rank(sq) + 1;
            commands.spawn(label(rank.to_string(), Vec2::new(-SQUARE * 0.45, SQUARE * 0.47), bevy::sprite::Anchor::TOP_LEFT));
        }
    }
}

/// A line between two points in world units, `width` thick.
fn line(a: Vec2, b: Vec2, width: f32, colour: Color, z: f32) -> (Decor, Sprite, Transform) {
    let d = b - a;
    let mid = (a + b) / 2.0;
    (
        Decor,
        Sprite::from_color(colour, Vec2::new(d.length() + width, width)),
        Transform::from_xyz(mid.x, mid.y, z).with_rotation(Quat::from_rotation_z(d.y.atan2(d.x))),
    )
}

/// A Xiangqi-style board: pieces on the points where lines cross, a river, palace diagonals.
fn layout_intersections(commands: &mut Commands, v: &crate::rules::Variant, view: BoardView, settings: &Settings) {
    let g = v.geometry;
    let (light, _) = settings.theme.colours();
    let wood = light.mix(&Color::srgb_u8(226, 180, 110), 0.6);
    let ink = Color::srgb_u8(70, 45, 25);
    let (w, h) = (g.files as f32 * SQUARE, g.ranks as f32 * SQUARE);
    commands.spawn((Decor, Sprite::from_color(wood, Vec2::new(w, h)), Transform::from_xyz(0.0, 0.0, 0.0)));
    let at = |f: u8, r: u8| square_centre(g, view, Square(r * g.files + f));
    let width = SQUARE * 0.025;
    for r in 0..g.ranks {
        commands.spawn(line(at(0, r), at(g.files - 1, r), width, ink, 0.1));
    }
    for f in 0..g.files {
        let edge = f == 0 || f == g.files - 1;
        match v.look.river_after {
            Some(river) if !edge && river >= 1 && river < g.ranks => {
                commands.spawn(line(at(f, 0), at(f, river - 1), width, ink, 0.1));
                commands.spawn(line(at(f, river), at(f, g.ranks - 1), width, ink, 0.1));
            }
            _ => {
                commands.spawn(line(at(f, 0), at(f, g.ranks - 1), width, ink, 0.1));
            }
        }
    }
    // A frame around the grid.
    let (a, b, c, d) = (at(0, 0), at(g.files - 1, 0), at(g.files - 1, g.ranks - 1), at(0, g.ranks - 1));
    let pad = Vec2::splat(SQUARE * 0.12);
    let (a, b, c, d) = (a - pad * Vec2::new(1.0, 1.0), b + pad * Vec2::new(1.0, -1.0), c + pad, d + pad * Vec2::new(-1.0, 1.0));
    for (p, q) in [(a, b), (b, c), (c, d), (d, a)] {
        commands.spawn(line(p, q, width * 2.0, ink, 0.1));
    }
    if let Some(river) = v.look.river_after {
        let y = (at(0, river - 1).y + at(0, river).y) / 2.0;
        commands.spawn((
            Decor,
            Text2d::new("River"),
            TextFont { font_size: FontSize::Px(SQUARE * 0.3), ..default() },
            TextColor(ink.with_alpha(0.55)),
            Transform::from_xyz(0.0, y, 0.2),
        ));
    }
    // Palaces: the diagonals of every 3×3 region a piece is confined to.
    let mut drawn: Vec<(u8, u8)> = Vec::new();
    for kind in v.registry.ids() {
        let Some(sets) = &v.registry.def(kind).zones.confinement else { continue };
        for set in sets {
            let squares: Vec<Square> = g.squares().filter(|&sq| set.contains(sq)).collect();
            if squares.len() != 9 {
                continue;
            }
            let (f0, r0) = (squares.iter().map(|&s| g.file(s)).min().unwrap_or(0), squares.iter().map(|&s| g.rank(s)).min().unwrap_or(0));
            if drawn.contains(&(f0, r0)) || squares.iter().any(|&s| g.file(s) > f0 + 2 || g.rank(s) > r0 + 2) {
                continue;
            }
            drawn.push((f0, r0));
            commands.spawn(line(at(f0, r0), at(f0 + 2, r0 + 2), width, ink, 0.1));
            commands.spawn(line(at(f0 + 2, r0), at(f0, r0 + 2), width, ink, 0.1));
        }
    }
    if settings.coordinates {
        for f in 0..g.files {
            let p = at(f, 0);
            let y = if view.bottom == Side::White { -h / 2.0 - SQUARE * 0.05 } else { h / 2.0 + SQUARE * 0.05 };
            commands.spawn((
                Decor,
                Text2d::new(((b'a' + f) as char).to_string()),
                TextFont { font_size: FontSize::Px(SQUARE * 0.2), ..default() },
                TextColor(Color::srgb(0.8, 0.75, 0.7)),
                Transform::from_xyz(p.x, y, 0.2),
            ));
        }
        for r in 0..g.ranks {
            let p = at(0, r);
            let x = if view.bottom == Side::White { -w / 2.0 - SQUARE * 0.12 } else { w / 2.0 + SQUARE * 0.12 };
            commands.spawn((
                Decor,
                Text2d::new((r + 1).to_string()),
                TextFont { font_size: FontSize::Px(SQUARE * 0.2), ..default() },
                TextColor(Color::srgb(0.8, 0.75, 0.7)),
                Transform::from_xyz(x, p.y, 0.2),
            ));
        }
    }
}

/// Squares worth tinting: where pieces are confined (palaces) and the regions that win.
fn region_squares(v: &crate::rules::Variant) -> Vec<Square> {
    let g = v.geometry;
    let mut sets: Vec<crate::rules::SquareSet> = Vec::new();
    for kind in v.registry.ids() {
        if let Some(c) = &v.registry.def(kind).zones.confinement {
            let whole = g.squares().all(|sq| c[0].contains(sq) || c[1].contains(sq));
            if !whole {
                sets.extend_from_slice(c);
            }
        }
    }
    for e in &v.end {
        if let EndCondition::RegionReached { regions, .. } | EndCondition::RegionHeld { regions, .. } = e {
            sets.extend_from_slice(regions);
        }
    }
    // A confinement to a whole half (Xiangqi's elephants) would tint half the board: leave those.
    let half = (g.files as u32 * g.ranks as u32) / 2;
    sets.retain(|s| (s.len() as u32) < half);
    g.squares().filter(|&sq| sets.iter().any(|s| s.contains(sq))).collect()
}

/// Gives a piece the sprite of its type and side, and redraws it when either changes.
fn dress_pieces(
    mut commands: Commands,
    rules: Res<Rules>,
    images: Res<PieceImages>,
    marks: Res<MarkImages>,
    settings: Res<Settings>,
    pieces: Query<(Entity, &PieceType, &Owner, Option<&Drawn>, Option<&Promoted>), With<Piece>>,
) {
    // (A designer's picture drawn since: the pieces are dressed again.)
    let redraw_all = settings.is_changed() || images.is_changed();
    for (entity, kind, owner, drawn, promoted) in &pieces {
        if drawn == Some(&Drawn(*kind, owner.0)) && !redraw_all {
            continue;
        }
        let mut e = commands.entity(entity);
        e.despawn_related::<Children>();
        let (sprite, letter) = piece_sprite(&rules, &images, &marks, &settings, *kind, owner.0, promoted.and_then(|p| p.0));
        e.insert(sprite);
        if let Some(letter) = letter {
            e.with_child(letter);
        }
        e.insert((Drawn(*kind, owner.0), Transform::default(), Visibility::Hidden));
        e.insert(LocationRedraw);
    }
}

/// A piece's sprite: its image in the chosen set, or (a designer's piece without one) a disc
/// with its letter as a child.
fn piece_sprite(
    rules: &Rules,
    images: &PieceImages,
    marks: &MarkImages,
    settings: &Settings,
    kind: PieceType,
    side: Side,
    promoted_from: Option<PieceType>,
) -> (Sprite, Option<(Text2d, TextFont, TextColor, Transform)>) {
    let def = rules.registry.def(kind);
    let base = promoted_from.map(|b| rules.registry.def(b)).filter(|b| b.promotes_to == Some(kind));
    let name = piece_image_name(def, base);
    // The designer's own picture, in every set; else the set's image.
    let image = images.own(def, side).or_else(|| match settings.pieces {
        PieceSet::Glyphs => name.and_then(|n| images.get(n, side)),
        // The flat set has the standard pieces and the knight compounds; the others keep their
        // glyph images.
        PieceSet::Flat => name.and_then(|n| images.get(&format!("flat-{n}"), side).or_else(|| images.get(n, side))),
        PieceSet::Letters => None,
    });
    match image {
        Some(image) => (Sprite { image, custom_size: Some(Vec2::splat(SQUARE * 0.92)), ..default() }, None),
        None => {
            let (fill, ink) = match side {
                Side::White => (Color::srgb(0.98, 0.98, 0.96), Color::srgb(0.1, 0.1, 0.1)),
                Side::Black => (Color::srgb(0.15, 0.14, 0.13), Color::srgb(0.95, 0.95, 0.95)),
            };
            let sprite = Sprite { image: marks.disc.clone(), color: fill, custom_size: Some(Vec2::splat(SQUARE * 0.86)), ..default() };
            let letter = (
                Text2d::new(def.letter.to_string()),
                TextFont { font_size: FontSize::Px(SQUARE * 0.5), ..default() },
                TextColor(ink),
                Transform::from_xyz(0.0, 0.0, 0.1),
            );
            (sprite, Some(letter))
        }
    }
}

/// A piece of an earlier position viewed (see [`super::browse`]).
#[derive(Component)]
struct BrowsedPiece;

/// While an earlier position is viewed, its pieces are drawn in place of the game's (which are
/// hidden, their badges with them); back at the game, the game's pieces are put back.
#[allow(clippy::too_many_arguments)]
fn draw_browsed(
    mut commands: Commands,
    browse: Res<Browse>,
    rules: Res<Rules>,
    view: Res<BoardView>,
    layout: Res<LayoutVersion>,
    (images, marks, settings): (Res<PieceImages>, Res<MarkImages>, Res<Settings>),
    old: Query<Entity, With<BrowsedPiece>>,
    mut live: Query<(Entity, &mut Visibility), With<Piece>>,
    mut hidden: Local<bool>,
) {
    if !(browse.is_changed() || view.is_changed() || layout.is_changed() || settings.is_changed() || images.is_changed()) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    match browse.shown() {
        Some(past) => {
            for (_, mut visibility) in &mut live {
                *visibility = Visibility::Hidden;
            }
            for &(sq, kind, side, promoted_from) in &past.pieces {
                let (sprite, letter) = piece_sprite(&rules, &images, &marks, &settings, kind, side, promoted_from);
                let at = square_centre(rules.0.geometry, *view, sq);
                let mut e = commands.spawn((BrowsedPiece, sprite, Transform::from_xyz(at.x, at.y, 2.0)));
                if let Some(letter) = letter {
                    e.with_child(letter);
                }
            }
            *hidden = true;
        }
        None if *hidden => {
            for (e, _) in &live {
                commands.entity(e).insert(LocationRedraw);
            }
            *hidden = false;
        }
        None => {}
    }
}

/// Marks a piece whose placement must be recomputed.
#[derive(Component)]
struct LocationRedraw;

/// A piece sliding to its new square.
#[derive(Component)]
pub(super) struct Glide {
    from: Vec3,
    to: Vec3,
    elapsed: f32,
}

/// Seconds a move's glide takes.
const GLIDE_SECS: f32 = 0.16;

/// Puts each piece where its `Location` says: a move glides there, a new layout snaps; a piece
/// that leaves the board fades out where it stood; pieces in a hand are hidden.
#[allow(clippy::type_complexity)]
fn place_pieces(
    mut commands: Commands,
    board: Res<Board>,
    view: Res<BoardView>,
    level: Res<super::settings::EffectsLevel>,
    log: Res<MoveLog>,
    mut pieces: Query<
        (Entity, &Location, &mut Transform, &mut Visibility, &Sprite, Has<LocationRedraw>),
        (With<Piece>, With<Drawn>, Or<(Changed<Location>, With<LocationRedraw>)>),
    >,
) {
    for (entity, loc, mut transform, mut visibility, sprite, snap) in &mut pieces {
        commands.entity(entity).remove::<LocationRedraw>();
        let shown = *visibility == Visibility::Visible;
        match loc.square() {
            Some(sq) => {
                let at = square_centre(board.geometry, *view, sq);
                let target = Vec3::new(at.x, at.y, 2.0);
                if shown && !snap && *level != super::settings::EffectsLevel::Off && transform.translation.truncate() != at {
                    let from = transform.translation;
                    commands.entity(entity).insert(Glide { from: from.with_z(9.0), to: target, elapsed: 0.0 });
                } else {
                    transform.translation = target;
                    commands.entity(entity).remove::<Glide>();
                }
                *visibility = Visibility::Visible;
            }
            None => {
                if shown && *level != super::settings::EffectsLevel::Off {
                    // A ghost of the piece fades where it stood; the mover that goes with its own
                    // move (a capturer blown up) glides to where it went first.
                    let mut ghost = sprite.clone();
                    ghost.color.set_alpha(0.9);
                    let from = transform.translation.with_z(8.0);
                    let moved = log.0.last().map(|r| r.mv).filter(|m| {
                        m.dropped().is_none() && m.to != m.from && square_centre(board.geometry, *view, m.from) == from.truncate()
                    });
                    let life = if moved.is_some() { 0.35 + GLIDE_SECS } else { 0.35 };
                    let mut fade = commands.spawn((
                        super::particles::Particle { velocity: Vec2::ZERO, gravity: 0.0, life, max_life: life, grow: SQUARE * 0.3 },
                        ghost,
                        Transform::from_translation(from),
                    ));
                    if let Some(m) = moved {
                        let to = square_centre(board.geometry, *view, m.to).extend(8.0);
                        fade.insert(Glide { from, to, elapsed: 0.0 });
                    }
                }
                *visibility = Visibility::Hidden;
            }
        }
    }
}

fn glide(
    mut commands: Commands,
    time: Res<Time>,
    speed: Res<super::settings::AnimationSpeed>,
    mut pieces: Query<(Entity, &mut Glide, &mut Transform)>,
) {
    for (e, mut g, mut t) in &mut pieces {
        g.elapsed += time.delta_secs() * speed.0;
        let k = (g.elapsed / GLIDE_SECS).clamp(0.0, 1.0);
        let eased = 1.0 - (1.0 - k) * (1.0 - k);
        t.translation = g.from.lerp(g.to, eased);
        if k >= 1.0 {
            t.translation = g.to;
            commands.entity(e).remove::<Glide>();
        }
    }
}

/// Pockets (Crazyhouse, Seirawan's gates): one piece per type in hand, at square size on a
/// tile that sets black and white pieces off the dark margin, with its count; the pocket piece
/// picked up is on the selection's green. Under fixed gating (Musketeer) each waiting piece is
/// drawn beyond its side's back rank, above (or below) the file it will enter on. A variant
/// without hands has none: a new game clears the last one's.
#[allow(clippy::too_many_arguments)]
fn draw_pockets(
    mut commands: Commands,
    version: Res<PositionVersion>,
    layout: Res<LayoutVersion>,
    view: Res<BoardView>,
    board: Res<Board>,
    rules: Res<Rules>,
    images: Res<PieceImages>,
    old: Query<Entity, Or<(With<PocketSlot>, With<PocketTile>)>>,
    browse: Res<Browse>,
    (state, selection): (Res<crate::rules::GameState>, Res<Selection>),
    mut drawn: Local<Option<(u64, u64, Side, Option<usize>, Option<Origin>, usize, usize)>>,
) {
    let rules_id = std::sync::Arc::as_ptr(&rules.0) as usize;
    let key = (version.0, layout.0, view.bottom, browse.ply, selection.origin, rules_id, images.1.len());
    if *drawn == Some(key) {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    if rules.0.drops.is_none() && !rules.0.switches.gating && !rules.0.switches.fixed_gating {
        return;
    }
    let g = board.geometry;
    let sprite_of = |kind: PieceType, side: Side, size: f32| match images
        .own(rules.registry.def(kind), side)
        .or_else(|| image_name(rules.registry.def(kind)).and_then(|n| images.get(n, side)))
    {
        Some(image) => Sprite { image, custom_size: Some(Vec2::splat(size)), ..default() },
        None => Sprite::from_color(Color::srgb(0.5, 0.5, 0.5), Vec2::splat(size * 0.7)),
    };
    if rules.0.switches.fixed_gating {
        // (While browsing, the waiting pieces are the present ones that the shown hand holds.)
        let hands = browse.shown().map_or(&board.hand_counts, |p| &p.hands);
        for side in Side::BOTH {
            let back = if side == Side::White { 0 } else { g.ranks - 1 };
            for (f, &k) in state.fixed_gates[side.index()].iter().enumerate().take(g.files as usize) {
                if k == 0 || hands[side.index()][(k - 1) as usize] == 0 {
                    continue;
                }
                let kind = crate::rules::PieceType(k - 1);
                let below = square_centre(g, *view, Square(back * g.files + f as u8));
                let outward = if below.y < 0.0 { -1.0 } else { 1.0 };
                let at = Vec2::new(below.x, below.y + outward * SQUARE * 0.95);
                commands.spawn((
                    PocketSlot { kind, side, home: at },
                    sprite_of(kind, side, SQUARE * 0.7),
                    Transform::from_xyz(at.x, at.y, 2.0),
                ));
            }
        }
        return;
    }
    let hands = browse.shown().map_or(&board.hand_counts, |p| &p.hands);
    let picked = match selection.origin {
        Some(Origin::Pocket(kind)) => Some((kind, state.turn)),
        _ => None,
    };
    for side in Side::BOTH {
        let held: Vec<(PieceType, u8)> =
            rules.registry.ids().map(|k| (k, hands[side.index()][k.0 as usize])).filter(|&(_, n)| n > 0).collect();
        for (index, &(kind, count)) in held.iter().enumerate() {
            let at = pocket_centre(g, *view, side, index, held.len());
            let tile = if picked == Some((kind, side)) { Color::srgb_u8(70, 120, 60) } else { Color::srgb_u8(120, 114, 106) };
            commands.spawn((
                PocketTile,
                Sprite::from_color(tile, Vec2::splat(pocket_pitch(g, held.len()) * 0.94)),
                Transform::from_xyz(at.x, at.y, 1.0),
            ));
            commands.spawn((
                PocketSlot { kind, side, home: at },
                sprite_of(kind, side, SQUARE * 0.9),
                Transform::from_xyz(at.x, at.y, 2.0),
            ));
            if count > 1 {
                let badge = Vec2::new(SQUARE * 0.34, SQUARE * 0.34);
                commands.spawn((
                    PocketTile,
                    Text2d::new(format!("{count}")),
                    TextFont { font_size: FontSize::Px(SQUARE * 0.3), ..default() },
                    TextColor(Color::WHITE),
                    bevy::sprite::Anchor::CENTER,
                    Transform::from_xyz(at.x + badge.x, at.y + badge.y, 2.5),
                ));
            }
        }
    }
}

/// Last move, check, selection, targets.
#[allow(clippy::too_many_arguments)]
fn draw_marks(
    mut commands: Commands,
    version: Res<PositionVersion>,
    layout: Res<LayoutVersion>,
    view: Res<BoardView>,
    selection: Res<Selection>,
    board: Res<Board>,
    log: Res<MoveLog>,
    check: Res<CheckSquares>,
    images: Res<MarkImages>,
    rules: Res<Rules>,
    old: Query<Entity, With<Mark>>,
    browse: Res<Browse>,
) {
    let changed = version.is_changed() || layout.is_changed() || view.is_changed() || selection.is_changed() || check.is_changed();
    if !(changed || browse.is_changed()) {
        return;
    }
    for e in &old {
        commands.entity(e).despawn();
    }
    let g = board.geometry;
    let view = *view;
    // On a Xiangqi-style board the marks are discs around the points, not squares.
    let points = rules.0.look.intersections;
    let disc = images.disc.clone();
    let mut tint = |sq: Square, colour: Color, z: f32| {
        let at = square_centre(g, view, sq);
        let sprite = if points {
            Sprite { image: disc.clone(), color: colour, custom_size: Some(Vec2::splat(SQUARE * 1.08)), ..default() }
        } else {
            Sprite::from_color(colour, Vec2::splat(SQUARE))
        };
        commands.spawn((Mark, sprite, Transform::from_xyz(at.x, at.y, z)));
    };
    // An earlier position viewed: only the move that led to it.
    let last = match browse.shown() {
        Some(past) => past.last,
        None => log.0.last().map(|r| r.mv),
    };
    if let Some(last) = last {
        let colour = Color::srgba_u8(155, 199, 0, 105);
        if last.dropped().is_none() {
            tint(last.from, colour, 0.2);
        }
        tint(last.to, colour, 0.2);
    }
    if browse.shown().is_some() {
        return;
    }
    // A square in check is tinted as well as glowing: a piece drawn as a tile (shogi's) covers
    // the glow's middle.
    for &sq in &check.0 {
        tint(sq, Color::srgba_u8(215, 40, 30, 80), 0.25);
    }
    if let Some(Origin::Square(sq)) = selection.origin {
        tint(sq, Color::srgba_u8(20, 85, 30, 128), 0.3);
    }
    // Duck chess: where the chosen piece goes, while the duck waits for its square.
    if selection.duck
        && let Some(m) = selection.moves.first()
    {
        tint(m.to, Color::srgba_u8(20, 85, 30, 128), 0.3);
    }
    // The duck (a wall that is not one of the board's), or a trail's walls, holes as the
    // board's are.
    for sq in board.walls().filter(|w| !rules.0.walls.contains(w)) {
        let at = square_centre(g, view, sq);
        if rules.0.switches.trail_walls {
            let hole = Sprite::from_color(Color::srgb(0.11, 0.09, 0.07), Vec2::splat(SQUARE));
            commands.spawn((Mark, hole, Transform::from_xyz(at.x, at.y, 0.3)));
            continue;
        }
        let sprite = Sprite { image: images.duck.clone(), custom_size: Some(Vec2::splat(SQUARE * 0.86)), ..default() };
        commands.spawn((Mark, sprite, Transform::from_xyz(at.x, at.y, 2.5)));
    }
    for &sq in &check.0 {
        let at = square_centre(g, view, sq);
        commands.spawn((
            Mark,
            Sprite { image: images.glow.clone(), custom_size: Some(Vec2::splat(SQUARE)), ..default() },
            Transform::from_xyz(at.x, at.y, 0.4),
        ));
    }
    // The targets (a ring where the move takes), and castling also where the king lands.
    let plain = selection.moves.iter().map(|m| (selection.target(m), m.capture && !selection.duck));
    let castles = selection.castles.iter().filter(|_| !selection.duck && !selection.leg).map(|&(_, to)| (to, false));
    let mut shown: Vec<Square> = Vec::new();
    for (to, ring) in plain.chain(castles) {
        if shown.contains(&to) {
            continue;
        }
        shown.push(to);
        let at = square_centre(g, view, to);
        let image = if ring { images.ring.clone() } else { images.dot.clone() };
        commands.spawn((Mark, Sprite { image, custom_size: Some(Vec2::splat(SQUARE)), ..default() }, Transform::from_xyz(at.x, at.y, 3.0)));
    }
}

fn cursor_world(windows: &Query<&Window, With<PrimaryWindow>>, cameras: &Query<(&Camera, &GlobalTransform)>) -> Option<Vec2> {
    let window = windows.single().ok()?;
    let (camera, transform) = cameras.single().ok()?;
    camera.viewport_to_world_2d(transform, window.cursor_position()?).ok()
}

/// Mouse presses and releases on the board and pockets become board inputs.
#[allow(clippy::too_many_arguments)]
fn mouse_to_inputs(
    buttons: Res<ButtonInput<MouseButton>>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    board: Res<Board>,
    view: Res<BoardView>,
    pockets: Query<&PocketSlot>,
    pending: Res<PendingChoice>,
    state: Res<crate::rules::GameState>,
    egui_input: Option<Res<bevy_egui::input::EguiWantsInput>>,
    mut inputs: MessageWriter<BoardInput>,
    (browse, mut browse_to): (Res<Browse>, MessageWriter<BrowseTo>),
    clocks: Res<Clocks>,
) {
    let pressed = buttons.just_pressed(MouseButton::Left);
    let released = buttons.just_released(MouseButton::Left);
    if !(pressed || released) || !pending.0.is_empty() {
        return;
    }
    // A press on a window over the board (the start screen, a dialog) is the window's.
    if pressed && egui_input.is_some_and(|e| e.is_pointer_over_area()) {
        return;
    }
    let Some(at) = cursor_world(&windows, &cameras) else { return };
    // The side panel is outside the board's viewport: presses there are the panel's.
    let side = side_width(&view, clocks.clock.is_some());
    let over_panel = windows.single().ok().is_some_and(|w| w.cursor_position().is_some_and(|p| p.x > w.width() - side));
    if over_panel {
        return;
    }
    let square = square_at(board.geometry, *view, at);
    // Viewing an earlier position, a click on the board goes back to the game.
    if browse.ply.is_some() {
        if pressed {
            browse_to.write(BrowseTo::Live);
        }
        return;
    }
    if pressed {
        if let Some(sq) = square {
            inputs.write(BoardInput::Press(sq));
        } else if let Some(slot) = pockets.iter().find(|s| s.side == state.turn && s.home.distance(at) < SQUARE * 0.45) {
            inputs.write(BoardInput::PressPocket(slot.kind));
        }
    }
    if released {
        let over_pocket = pockets.iter().any(|s| s.home.distance(at) < SQUARE * 0.45);
        match square {
            Some(sq) => {
                inputs.write(BoardInput::Release(sq));
            }
            // Released on the pocket it was pressed on: a click; the piece stays selected for a
            // click on the target square.
            None if over_pocket => {}
            None => {
                inputs.write(BoardInput::ReleaseOff);
            }
        }
    }
}

/// A piece being dragged follows the cursor, above everything else.
#[allow(clippy::too_many_arguments)]
fn follow_cursor(
    mut commands: Commands,
    selection: Res<Selection>,
    board: Res<Board>,
    state: Res<crate::rules::GameState>,
    windows: Query<&Window, With<PrimaryWindow>>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    mut pieces: Query<&mut Transform, (With<Piece>, Without<PocketSlot>)>,
    mut pockets: Query<(&PocketSlot, &mut Transform), Without<Piece>>,
    mut last_dragged: Local<Option<Entity>>,
) {
    // A piece dragged out of a pocket follows the cursor; the others rest at home.
    let pocket_drag = match (selection.dragging, selection.origin) {
        (true, Some(Origin::Pocket(kind))) => Some(kind),
        _ => None,
    };
    let cursor = cursor_world(&windows, &cameras);
    for (slot, mut t) in &mut pockets {
        let target = match (pocket_drag, cursor) {
            (Some(kind), Some(at)) if slot.kind == kind && slot.side == state.turn => at.extend(10.0),
            _ => slot.home.extend(2.0),
        };
        if t.translation != target {
            t.translation = target;
        }
    }
    let dragged = match (selection.dragging, selection.origin) {
        (true, Some(Origin::Square(sq))) => board.entity(sq),
        _ => None,
    };
    if *last_dragged != dragged {
        // Put a released piece back on its square (its Location did not change).
        if let Some(e) = last_dragged.take()
            && pieces.contains(e)
        {
            commands.entity(e).insert(LocationRedraw);
        }
        *last_dragged = dragged;
    }
    let (Some(e), Some(at)) = (dragged, cursor) else { return };
    if let Ok(mut t) = pieces.get_mut(e) {
        t.translation = Vec3::new(at.x, at.y, 10.0);
    }
}

/// A badge on a piece showing one of its preset facts.
#[derive(Component)]
struct FactBadge;

/// A tint of a square a preset's state names (poison).
#[derive(Component)]
struct PoisonTint;

/// The piece facts active presets own, drawn as their [`FactLook`]s say (hit points as red pips
/// along the bottom of the piece, a shield as a blue ring, stamina as yellow pips along the
/// top; a number when there are more than five); a piece with modifiers from the profile has a
/// violet badge in its top right corner (gold when it carries its own per-instance entry).
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
fn draw_facts(
    mut commands: Commands,
    version: Res<PositionVersion>,
    layout: Res<LayoutVersion>,
    badges: Query<Entity, With<FactBadge>>,
    pieces: Query<(Entity, &Location, EntityRef), With<Piece>>,
    marks: Res<MarkImages>,
    board: Res<Board>,
    profile: Option<Res<crate::presets::ActiveProfile>>,
    rules: Option<Res<crate::rules::Rules>>,
    slots: Option<Res<crate::presets::FactSlots>>,
    mut drawn: Local<Option<(u64, u64)>>,
) {
    if *drawn == Some((version.0, layout.0)) {
        return;
    }
    *drawn = Some((version.0, layout.0));
    for e in &badges {
        commands.entity(e).despawn();
    }
    // Every preset's way of showing a piece fact, drawn wherever a piece has that fact (a
    // profile's hit-point bonus gives hit points without the preset on).
    let looks: Vec<FactLook> = crate::presets::fact_looks(rules.as_deref().map(|r| &*r.0));
    let pip = |colour: Color, x: f32, y: f32| {
        (
            FactBadge,
            Sprite { image: marks.disc.clone(), color: colour, custom_size: Some(Vec2::splat(SQUARE * 0.13)), ..default() },
            Transform::from_xyz(x, y, 0.2),
        )
    };
    let row = |n: i32, y: f32, colour: Color, commands: &mut Commands, parent: Entity| {
        if n > 5 {
            commands.entity(parent).with_child((
                FactBadge,
                Text2d::new(format!("{n}")),
                TextFont { font_size: FontSize::Px(SQUARE * 0.2), ..default() },
                TextColor(colour),
                Transform::from_xyz(0.0, y, 0.2),
            ));
            return;
        }
        for i in 0..n.max(0) {
            let x = (i as f32 - (n as f32 - 1.0) / 2.0) * SQUARE * 0.15;
            commands.entity(parent).with_child(pip(colour, x, y));
        }
    };
    for (e, loc, piece) in &pieces {
        let Some(sq) = loc.square() else { continue };
        if profile.as_ref().and_then(|p| p.on(&board, sq)).is_some_and(|m| !m.is_empty()) {
            let own = board.mark(sq) != 0;
            let colour = if own { Color::srgb(0.95, 0.75, 0.15) } else { Color::srgb(0.65, 0.35, 0.95) };
            commands.entity(e).with_child((
                FactBadge,
                Sprite { image: marks.disc.clone(), color: colour, custom_size: Some(Vec2::splat(SQUARE * 0.17)), ..default() },
                Transform::from_xyz(SQUARE * 0.36, SQUARE * 0.36, 0.2),
            ));
        }
        for look in &looks {
            match *look {
                FactLook::Pips { fact, top, colour: [r, g, b] } => {
                    if let Some(n) = crate::presets::piece_fact(&piece, slots.as_deref(), fact) {
                        let y = if top { SQUARE * 0.4 } else { -SQUARE * 0.4 };
                        row(n, y, Color::srgb_u8(r, g, b), &mut commands, e);
                    }
                }
                FactLook::Ring { fact, colour: [r, g, b, a] } => {
                    if crate::presets::piece_fact(&piece, slots.as_deref(), fact).is_some_and(|n| n > 0) {
                        commands.entity(e).with_child((
                            FactBadge,
                            Sprite {
                                image: marks.halo.clone(),
                                color: Color::srgba_u8(r, g, b, a),
                                custom_size: Some(Vec2::splat(SQUARE)),
                                ..default()
                            },
                            Transform::from_xyz(0.0, 0.0, -0.1),
                        ));
                    }
                }
                FactLook::StateSquares { .. } => {}
            }
        }
    }
}

/// Squares a preset's state marks, tinted as its [`FactLook::StateSquares`] says (the
/// `poisoned-squares` preset's, green).
fn draw_poison(
    mut commands: Commands,
    version: Res<PositionVersion>,
    layout: Res<LayoutVersion>,
    view: Res<BoardView>,
    board: Res<Board>,
    state: Option<Res<crate::presets::PresetState>>,
    active: Option<Res<crate::presets::ActivePresets>>,
    old: Query<Entity, With<PoisonTint>>,
    browse: Res<Browse>,
    mut drawn: Local<Option<(u64, u64, Side, Option<usize>)>>,
) {
    let key = (version.0, layout.0, view.bottom, browse.ply);
    if *drawn == Some(key) {
        return;
    }
    *drawn = Some(key);
    for e in &old {
        commands.entity(e).despawn();
    }
    // The game's state, not an earlier position's.
    let Some(state) = state.filter(|_| browse.ply.is_none()) else { return };
    let g = board.geometry;
    for a in active.iter().flat_map(|a| a.0.iter()) {
        let Some(def) = crate::presets::by_id(a.id) else { continue };
        for look in def.looks {
            let FactLook::StateSquares { colour: [r, gr, b, al] } = *look else { continue };
            for sq in state.squares(a.id).iter() {
                let at = square_centre(g, *view, sq);
                commands.spawn((
                    PoisonTint,
                    Sprite::from_color(Color::srgba_u8(r, gr, b, al), Vec2::splat(SQUARE)),
                    Transform::from_xyz(at.x, at.y, 0.25),
                ));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Variant, install_rules, parse_fen, setup_position};

    /// Just the pockets, on `variant` from `fen`.
    fn pockets_app(variant: Variant, fen: &str) -> App {
        let mut app = App::new();
        app.add_plugins(MinimalPlugins);
        install_rules(app.world_mut(), std::sync::Arc::new(variant.clone())).unwrap();
        setup_position(app.world_mut(), &parse_fen(&variant, fen).unwrap()).unwrap();
        app.init_resource::<PositionVersion>();
        app.init_resource::<LayoutVersion>();
        app.init_resource::<BoardView>();
        app.init_resource::<PieceImages>();
        app.init_resource::<Browse>();
        app.init_resource::<Selection>();
        app.add_systems(Update, draw_pockets);
        app
    }

    fn tiles(app: &mut App) -> Vec<(PieceType, Side, Color)> {
        let slots: Vec<(PieceType, Side, Vec2)> =
            app.world_mut().query::<&PocketSlot>().iter(app.world()).map(|s| (s.kind, s.side, s.home)).collect();
        let mut tiles: Vec<(Vec2, Color)> = Vec::new();
        for (t, sprite) in app.world_mut().query_filtered::<(&Transform, &Sprite), With<PocketTile>>().iter(app.world()) {
            tiles.push((t.translation.truncate(), sprite.color));
        }
        slots.iter().map(|&(k, s, at)| (k, s, tiles.iter().find(|t| t.0 == at).map(|t| t.1).unwrap_or(Color::NONE))).collect()
    }

    /// The pockets of a crazyhouse game go with it: a chess game after it shows none (it once
    /// kept the last count above the b-file); the pocket piece picked up is on green.
    #[test]
    fn pockets_follow_the_game_and_show_the_piece_picked_up() {
        let crazyhouse = crate::variants::builtin("crazyhouse").unwrap();
        let mut app = pockets_app(crazyhouse, "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NNb] w KQkq - 0 1");
        app.update();
        let drawn = tiles(&mut app);
        assert_eq!(drawn.len(), 2, "{drawn:?}");
        let counts: Vec<String> = app.world_mut().query::<&Text2d>().iter(app.world()).map(|t| t.0.clone()).collect();
        assert_eq!(counts, ["2"]);
        let knight = drawn.iter().find(|t| t.1 == Side::White).unwrap().0;
        app.world_mut().resource_mut::<Selection>().origin = Some(Origin::Pocket(knight));
        app.update();
        let picked = tiles(&mut app);
        let white = picked.iter().find(|t| t.1 == Side::White).unwrap().2;
        let black = picked.iter().find(|t| t.1 == Side::Black).unwrap().2;
        assert_ne!(white, black, "the picked piece's tile stands out");
        // A new chess game: no pocket is left.
        *app.world_mut().resource_mut::<Selection>() = Selection::default();
        install_rules(app.world_mut(), std::sync::Arc::new(Variant::chess())).unwrap();
        app.world_mut().resource_mut::<PositionVersion>().0 += 1;
        app.update();
        assert!(tiles(&mut app).is_empty());
        assert_eq!(app.world_mut().query::<&Text2d>().iter(app.world()).count(), 0);
    }
}
