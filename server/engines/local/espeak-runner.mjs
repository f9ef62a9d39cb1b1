// Runs espeak-ng (WebAssembly, npm `espeak-ng`) once as its own program and writes the WAV to stdout.
// Usage: node espeak-runner.mjs <voice> <words-per-minute> <text>
// Kept out of the server process: espeak-ng is GPL-3.0 (like the bundled ffmpeg, it runs as a separate
// program), and Emscripten's exit handling touches process state.
import ESpeakNg from 'espeak-ng';

const [voice, wpm, text] = process.argv.slice(2);
const errors = [];
const instance = await ESpeakNg({
  arguments: ['-w', '/tmp/speech.wav', '-v', voice, '-s', wpm, '--', text],
  print: () => {},
  printErr: (line) => {
    if (!line.includes('keepRuntimeAlive')) errors.push(line);
  },
});
let wav;
try {
  wav = instance.FS.readFile('/tmp/speech.wav');
} catch {
  process.stderr.write(`${errors.join('\n') || 'espeak-ng wrote no audio'}\n`);
  process.exit(3);
}
process.stdout.write(Buffer.from(wav), () => process.exit(0));
