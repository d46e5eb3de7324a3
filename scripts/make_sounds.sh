#!/usr/bin/env bash
# Synthesises Chimera's sound effects with sox into assets/sounds/*.ogg (our own, MIT/Apache).
# Run from the repository root: bash scripts/make_sounds.sh
set -euo pipefail
out=assets/sounds
mkdir -p "$out"
r=44100
# A wooden tap: a short damped low sine with a click of filtered noise.
sox -n -r $r -c 1 /tmp/chimera-tap1.wav synth 0.09 sine 190 fade q 0.002 0.09 0.08 gain -4
sox -n -r $r -c 1 /tmp/chimera-tap2.wav synth 0.03 pinknoise gain -10 lowpass 2500 fade q 0.001 0.03 0.025
sox -m /tmp/chimera-tap1.wav /tmp/chimera-tap2.wav "$out/move.ogg"
# A capture: two quick taps, the second lower and harder.
sox -n -r $r -c 1 /tmp/chimera-cap.wav synth 0.12 sine 150 fade q 0.002 0.12 0.1 gain -2
sox /tmp/chimera-tap2.wav /tmp/chimera-cap.wav "$out/capture.ogg"
# Check: a bright two-tone chime.
sox -n -r $r -c 1 "$out/check.ogg" synth 0.35 sine 880 sine 1320 remix - fade q 0.005 0.35 0.3 gain -8
# Explosion: brown noise burst with a falling low rumble.
sox -n -r $r -c 1 /tmp/chimera-boom1.wav synth 0.9 brownnoise fade q 0.005 0.9 0.85 gain -1
sox -n -r $r -c 1 /tmp/chimera-boom2.wav synth 0.9 sine 90-30 fade q 0.005 0.9 0.8 gain -3
sox -m /tmp/chimera-boom1.wav /tmp/chimera-boom2.wav "$out/explosion.ogg" gain -8 lowpass 1200
# Damage: a short descending buzz.
sox -n -r $r -c 1 "$out/damage.ogg" synth 0.18 square 420-180 gain -12 lowpass 1800 fade q 0.003 0.18 0.12
# Heal: a soft rising sparkle.
sox -n -r $r -c 1 "$out/heal.ogg" synth 0.3 sine 660-1320 fade q 0.02 0.3 0.2 gain -12
# Game start: a rising fifth.
sox -n -r $r -c 1 /tmp/chimera-s1.wav synth 0.14 sine 523 fade q 0.005 0.14 0.06 gain -9
sox -n -r $r -c 1 /tmp/chimera-s2.wav synth 0.3 sine 784 fade q 0.005 0.3 0.2 gain -9
sox /tmp/chimera-s1.wav /tmp/chimera-s2.wav "$out/start.ogg"
# Game end: a falling triad.
sox -n -r $r -c 1 /tmp/chimera-e1.wav synth 0.16 sine 784 fade q 0.005 0.16 0.06 gain -9
sox -n -r $r -c 1 /tmp/chimera-e2.wav synth 0.16 sine 659 fade q 0.005 0.16 0.06 gain -9
sox -n -r $r -c 1 /tmp/chimera-e3.wav synth 0.5 sine 523 fade q 0.005 0.5 0.4 gain -9
sox /tmp/chimera-e1.wav /tmp/chimera-e2.wav /tmp/chimera-e3.wav "$out/end.ogg"
# Low time: two soft high ticks, as a clock that is running out.
sox -n -r $r -c 1 /tmp/chimera-t1.wav synth 0.05 sine 1760 fade q 0.002 0.05 0.04 gain -14
sox -n -r $r -c 1 /tmp/chimera-t0.wav trim 0 0.12
sox /tmp/chimera-t1.wav /tmp/chimera-t0.wav /tmp/chimera-t1.wav "$out/lowtime.ogg"
rm -f /tmp/chimera-*.wav
ls -l "$out"
