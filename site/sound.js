// The table's sounds: dice, a card, chips, your turn. Off unless the player turns them on in
// Settings. Each is synthesised with Web Audio when it plays (a few oscillators and a burst
// of noise, well under half a second): no audio file to download on a phone.
//
// Which sound goes with what is the screen's to say (pyengine/ui/motion.py marks an element
// that moves with data-sound; screen.js plays it when the element is new, and "turn" when the
// table comes to the player). Each cue played is announced as a "taberna:sound" event on the
// document, which is what a test observes (never the audio itself).

const VOLUME = 0.25;

/** Shapes each cue draws with ``tone`` and ``noise`` (start and length in seconds). */
const CUES = {
  // Dice shaken and rolled: a rattle of short knocks, each a little softer.
  dice: (s) => [0, 0.06, 0.11, 0.19, 0.24].forEach((at, i) => s.noise(at, 0.035, 1800 + 400 * i, 1 - i * 0.15)),
  // A card laid on the table: a short, soft swish.
  card: (s) => s.noise(0, 0.09, 3200, 0.7),
  // Chips set down: two bright clinks.
  chips: (s) => {
    s.tone(0, 0.06, 2400, "triangle", 0.5);
    s.tone(0.05, 0.07, 3100, "triangle", 0.4);
  },
  // Your turn: a gentle rising pair of notes.
  turn: (s) => {
    s.tone(0, 0.14, 660, "sine", 0.6);
    s.tone(0.12, 0.2, 880, "sine", 0.6);
  },
};

export class TableSounds {
  /** ``enabled``: whether the player turned sounds on (Settings). */
  constructor(enabled) {
    this.enabled = enabled;
    this.audio = null; // the AudioContext, made at the first sound (after a tap: browsers allow it then)
    this.noiseBuffer = null;
  }

  /** Plays ``cue`` (a name of CUES) when sounds are on; silence where there is no audio. */
  play(cue) {
    if (!this.enabled || !(cue in CUES)) return;
    document.dispatchEvent(new CustomEvent("taberna:sound", { detail: cue }));
    try {
      this.audio ??= new AudioContext();
      if (this.audio.state === "suspended") this.audio.resume();
      CUES[cue](this);
    } catch {
      // No Web Audio here (or it refused to start): the game goes on in silence.
    }
  }

  /** A note: ``type`` oscillator at ``hz``, rising fast and fading over ``length``. */
  tone(at, length, hz, type, level) {
    const { audio } = this;
    const start = audio.currentTime + at;
    const oscillator = new OscillatorNode(audio, { type, frequency: hz });
    oscillator.connect(this.envelope(start, length, level)).connect(audio.destination);
    oscillator.start(start);
    oscillator.stop(start + length);
  }

  /** A burst of noise through a band-pass filter around ``hz``: a knock, a swish. */
  noise(at, length, hz, level) {
    const { audio } = this;
    const start = audio.currentTime + at;
    if (!this.noiseBuffer) {
      this.noiseBuffer = new AudioBuffer({ length: Math.round(audio.sampleRate * 0.1), sampleRate: audio.sampleRate });
      const samples = this.noiseBuffer.getChannelData(0);
      for (let i = 0; i < samples.length; i += 1) samples[i] = Math.random() * 2 - 1;
    }
    const source = new AudioBufferSourceNode(audio, { buffer: this.noiseBuffer });
    const band = new BiquadFilterNode(audio, { type: "bandpass", frequency: hz, Q: 1.2 });
    source.connect(band).connect(this.envelope(start, length, level)).connect(audio.destination);
    source.start(start);
    source.stop(start + length);
  }

  envelope(start, length, level) {
    const gain = new GainNode(this.audio, { gain: 0 });
    gain.gain.setValueAtTime(0, start);
    gain.gain.linearRampToValueAtTime(VOLUME * level, start + Math.min(0.01, length / 4));
    gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
    return gain;
  }
}
