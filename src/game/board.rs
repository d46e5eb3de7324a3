//! The board: squares, coordinates, and a sprite for every piece entity of the rules,
//! placed from its `Location` component.

use bevy::prelude::*;

use crate::rules::{Board, Location, Owner, Piece, PieceType, Rules, Side, Square};

/// Side length of one square in world units.
const SQUARE: f32 = 96.0;

pub(super) fn plugin(app: &mut App) {
    app.insert_resource(ClearColor(Color::srgb(0.16, 0.15, 0.14)));
    app.add_systems(Startup, spawn_board);
    app.add_systems(Update, (dress_new_pieces, place_pieces).chain());
}

/// Where the centre of `sq` is drawn.
fn square_centre(board: &Board, sq: Square) -> Vec2 {
    let g = board.geometry;
    let (w, h) = (g.files as f32, g.ranks as f32);
    Vec2::new((g.file(sq) as f32 - (w - 1.0) / 2.0) * SQUARE, (g.rank(sq) as f32 - (h - 1.0) / 2.0) * SQUARE)
}

fn spawn_board(mut commands: Commands, board: Res<Board>) {
    // The camera keeps the whole board and its coordinates in view at any window size.
    let g = board.geometry;
    let (w, h) = ((g.files as f32 + 1.0) * SQUARE, (g.ranks as f32 + 1.0) * SQUARE);
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: bevy::camera::ScalingMode::AutoMin { min_width: w, min_height: h },
            ..OrthographicProjection::default_2d()
        }),
    ));
    let light = Color::srgb(0.94, 0.85, 0.71);
    let dark = Color::srgb(0.71, 0.53, 0.39);
    for sq in g.squares() {
        let colour = if (g.file(sq) + g.rank(sq)).is_multiple_of(2) { dark } else { light };
        let at = square_centre(&board, sq);
        commands.spawn((Sprite::from_color(colour, Vec2::splat(SQUARE)), Transform::from_xyz(at.x, at.y, 0.0)));
    }
    let label = |text: String, at: Vec2| {
        (
            Text2d::new(text),
            TextFont { font_size: FontSize::Px(20.0), ..default() },
            TextColor(Color::srgb(0.85, 0.82, 0.78)),
            Transform::from_xyz(at.x, at.y, 1.0),
        )
    };
    for f in 0..g.files {
        let at = square_centre(&board, Square(f)) - Vec2::new(0.0, SQUARE * 0.7);
        commands.spawn(label(((b'a' + f) as char).to_string(), at));
    }
    for r in 0..g.ranks {
        let at = square_centre(&board, Square(r * g.files)) - Vec2::new(SQUARE * 0.7, 0.0);
        commands.spawn(label((r + 1).to_string(), at));
    }
}

/// Gives every new rules piece its look: a disc in its side's colour with its letter.
fn dress_new_pieces(mut commands: Commands, rules: Res<Rules>, pieces: Query<(Entity, &PieceType, &Owner), Added<Piece>>) {
    for (entity, kind, owner) in &pieces {
        let (fill, ink) = match owner.0 {
            Side::White => (Color::srgb(0.97, 0.97, 0.95), Color::srgb(0.1, 0.1, 0.1)),
            Side::Black => (Color::srgb(0.12, 0.12, 0.13), Color::srgb(0.95, 0.95, 0.95)),
        };
        let letter = rules.registry.def(*kind).letter.to_string();
        commands
            .entity(entity)
            .insert((Sprite::from_color(fill, Vec2::splat(SQUARE * 0.72)), Transform::default(), Visibility::Hidden))
            .with_child((
                Text2d::new(letter),
                TextFont { font_size: FontSize::Px(52.0), ..default() },
                TextColor(ink),
                Transform::from_xyz(0.0, 0.0, 0.1),
            ));
    }
}

/// Puts each piece where its `Location` says; captured and pocketed pieces are hidden.
fn place_pieces(board: Res<Board>, mut pieces: Query<(&Location, &mut Transform, &mut Visibility), (With<Piece>, Changed<Location>)>) {
    for (loc, mut transform, mut visibility) in &mut pieces {
        match loc.square() {
            Some(sq) => {
                let at = square_centre(&board, sq);
                transform.translation = Vec3::new(at.x, at.y, 2.0);
                *visibility = Visibility::Visible;
            }
            None => *visibility = Visibility::Hidden,
        }
    }
}
