#!/usr/bin/env python3
"""Generate the small media files under tests/data/media/ (issue 28's playback tests).

Run:  python3 -m venv /tmp/mediavenv && /tmp/mediavenv/bin/pip install av==16.0.1 numpy
      /tmp/mediavenv/bin/python scripts/gen_media.py

Tool: PyAV (https://pypi.org/project/av/, BSD-3-Clause) from PyPI; its wheels bundle FFmpeg
(LGPL-2.1+) with libx264 (GPL-2.0+), libmp3lame, libvorbis and libaom. The files it writes
are our own synthetic signals (sine tones, numbered grey frames) and carry no third-party
content. Every file is deterministic in content, not necessarily byte-for-byte across
FFmpeg versions; the tests read the signal, not the bytes.

The signals (the tests rely on them):
  tone.*       2.0 s mono at 16 kHz: 0.0-1.0 s a 440 Hz sine, 1.0-2.0 s an 880 Hz sine,
               amplitude 0.5. WAV and FLAC are lossless: sample n is exactly
               round(0.5 * 32767 * sin(2 pi f t)) with t = n / 16000 (f per half).
  clip_h264.mp4 / clip_av1.mp4
               64x48, 10 fps, 2.0 s (20 frames); frame k is a flat grey of luma 10 + 10 k
               (so a decoded frame tells its number), with the tone as AAC audio.
  clip_h264_short_audio.mp4
               the clip_h264 frames (2.0 s) with only the first second of the tone: the
               video goes on after its sound ends.
  clip_h264_bframes.mp4
               the same frames, H.264 Main profile with B-frames (decode order differs from
               display order), moov first (`faststart`, so a cut file keeps its index), no
               audio (a video timed by the wall clock).
  clip_vp9.webm
               the same frames as VP9 with the tone as Opus in WebM (a codec this build does
               not decode: "format not supported").
  clip_720p_h264.mp4 / clip_720p_av1.mp4
               1280x720, 10 frames at 30 fps of a moving colour gradient, no audio (the
               per-frame decode + upload bench, benches/media.rs).

Licences: the PyAV wheel's encoders used here are libx264 (GPL-2.0+), libaom (BSD-2-Clause),
libvpx (BSD-3-Clause) and FFmpeg's native AAC and libopus (BSD-3-Clause). An encoder's licence
does not extend to what it encodes: the files are our synthetic signals.

Usage: gen_media.py [NAME...]  (only the named files; all by default)
"""

import fractions
import os
import sys

import av
import numpy as np

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data", "media")
RATE = 16000
SECONDS = 2.0


def tone() -> np.ndarray:
    n = np.arange(int(RATE * SECONDS))
    t = n / RATE
    f = np.where(t < 1.0, 440.0, 880.0)
    return np.round(0.5 * 32767 * np.sin(2 * np.pi * f * t)).astype(np.int16)


def write_audio(name: str, fmt: str, codec: str, rate: int = RATE, bit_rate=None) -> None:
    path = os.path.join(OUT, name)
    samples = tone()
    with av.open(path, "w", format=fmt) as out:
        stream = out.add_stream(codec, rate=rate, layout="mono")
        if bit_rate:
            stream.bit_rate = bit_rate
        fmt_in = "s16"
        chunk = 1024
        pts = 0
        for start in range(0, len(samples), chunk):
            part = samples[start : start + chunk]
            frame = av.AudioFrame.from_ndarray(part.reshape(1, -1), format=fmt_in, layout="mono")
            frame.sample_rate = RATE
            frame.pts = pts
            frame.time_base = fractions.Fraction(1, RATE)
            pts += len(part)
            for packet in stream.encode(frame):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    print(name, os.path.getsize(path), "bytes")


def write_video(
    name: str,
    codec: str,
    options: dict,
    fmt: str = "mp4",
    audio: str = "aac",
    container_options: dict = None,
    audio_seconds: float = SECONDS,
) -> None:
    path = os.path.join(OUT, name)
    fps = 10
    frames = int(fps * SECONDS)
    samples = tone()
    with av.open(path, "w", format=fmt, options=container_options or {}) as out:
        v = out.add_stream(codec, rate=fps, options=options)
        v.width, v.height, v.pix_fmt = 64, 48, "yuv420p"
        if audio:
            a = out.add_stream(audio, rate=48000 if audio == "libopus" else RATE, layout="mono")
            a.bit_rate = 32000
        for k in range(frames):
            y = np.full((48, 64), 10 + 10 * k, dtype=np.uint8)
            u = np.full((24, 32), 128, dtype=np.uint8)
            yuv = np.concatenate([y.reshape(-1), u.reshape(-1), u.reshape(-1)]).reshape(72, 64)
            frame = av.VideoFrame.from_ndarray(yuv, format="yuv420p")
            frame.pts = k
            frame.time_base = fractions.Fraction(1, fps)
            for packet in v.encode(frame):
                out.mux(packet)
        for packet in v.encode(None):
            out.mux(packet)
        if audio:
            encode_tone(out, a, samples[: int(RATE * audio_seconds)], audio)
    print(name, os.path.getsize(path), "bytes")


def encode_tone(out, a, samples, audio: str) -> None:
    """The tone (held at 48 kHz for Opus) into audio stream `a`."""
    if audio == "libopus":
        samples = np.repeat(samples, 3)  # 48 kHz for Opus: the same tone, held
    rate = 48000 if audio == "libopus" else RATE
    pts = 0
    for start in range(0, len(samples), 1024):
        part = samples[start : start + 1024]
        frame = av.AudioFrame.from_ndarray(part.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = rate
        frame.pts = pts
        frame.time_base = fractions.Fraction(1, rate)
        pts += len(part)
        for packet in a.encode(frame):
            out.mux(packet)
    for packet in a.encode(None):
        out.mux(packet)


def write_720p(name: str, codec: str, options: dict) -> None:
    """10 frames of a colour gradient moving 8 pixels a frame (texture the encoder must code)."""
    path = os.path.join(OUT, name)
    w, h, fps = 1280, 720, 30
    with av.open(path, "w", format="mp4") as out:
        v = out.add_stream(codec, rate=fps, options=options)
        v.width, v.height, v.pix_fmt = w, h, "yuv420p"
        x = np.arange(w)[None, :]
        y = np.arange(h)[:, None]
        for k in range(10):
            rgb = np.zeros((h, w, 3), dtype=np.uint8)
            rgb[..., 0] = ((x + 8 * k) * 255 // w) % 256
            rgb[..., 1] = (y * 255 // h) % 256
            rgb[..., 2] = (((x + y) // 4 + 8 * k) % 256)
            frame = av.VideoFrame.from_ndarray(rgb, format="rgb24").reformat(format="yuv420p")
            frame.pts = k
            frame.time_base = fractions.Fraction(1, fps)
            for packet in v.encode(frame):
                out.mux(packet)
        for packet in v.encode(None):
            out.mux(packet)
    print(name, os.path.getsize(path), "bytes")


FILES = {
    "tone.wav": lambda: write_audio("tone.wav", "wav", "pcm_s16le"),
    "tone.flac": lambda: write_audio("tone.flac", "flac", "flac"),
    "tone.mp3": lambda: write_audio("tone.mp3", "mp3", "libmp3lame", bit_rate=32000),
    "tone.ogg": lambda: write_audio("tone.ogg", "ogg", "libvorbis"),
    "tone.m4a": lambda: write_audio("tone.m4a", "mp4", "aac", bit_rate=32000),
    "clip_h264.mp4": lambda: write_video(
        "clip_h264.mp4", "libx264", {"profile": "baseline", "preset": "veryfast"}
    ),
    "clip_av1.mp4": lambda: write_video("clip_av1.mp4", "libaom-av1", {"cpu-used": "8"}),
    "clip_h264_bframes.mp4": lambda: write_video(
        "clip_h264_bframes.mp4",
        "libx264",
        {"profile": "main", "preset": "veryfast", "bf": "2", "g": "10"},
        audio=None,
        container_options={"movflags": "faststart"},
    ),
    "clip_h264_short_audio.mp4": lambda: write_video(
        "clip_h264_short_audio.mp4",
        "libx264",
        {"profile": "baseline", "preset": "veryfast"},
        audio_seconds=1.0,
    ),
    "clip_vp9.webm": lambda: write_video(
        "clip_vp9.webm", "libvpx-vp9", {"cpu-used": "8", "deadline": "realtime"},
        fmt="webm", audio="libopus",
    ),
    "clip_720p_h264.mp4": lambda: write_720p(
        "clip_720p_h264.mp4", "libx264", {"preset": "veryfast", "crf": "32"}
    ),
    "clip_720p_av1.mp4": lambda: write_720p(
        "clip_720p_av1.mp4", "libaom-av1", {"cpu-used": "8", "crf": "45"}
    ),
}


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    for name in sys.argv[1:] or FILES:
        FILES[name]()
    return 0


if __name__ == "__main__":
    sys.exit(main())
