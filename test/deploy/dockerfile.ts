import { readFileSync } from 'node:fs';

/** The instructions of the Dockerfile's last stage (the image that runs), continuation lines joined. */
function finalStage(): string[] {
  const lines = readFileSync('Dockerfile', 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const from = lines.findLastIndex((line) => /^FROM\s/i.test(line));
  return lines.slice(from);
}

/** The environment the image sets (`ENV NAME=value …` lines of its last stage). */
export function imageEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of finalStage().filter((instruction) => /^ENV\s/i.test(instruction))) {
    for (const [, name, value] of line.slice(3).matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|\S*)/g)) env[name!] = value!.replace(/^"|"$/g, '');
  }
  return env;
}

/** The ports the image exposes (`EXPOSE` lines of its last stage). */
export function exposedPorts(): number[] {
  return finalStage()
    .filter((instruction) => /^EXPOSE\s/i.test(instruction))
    .flatMap((line) => line.slice(6).trim().split(/\s+/))
    .map((port) => Number.parseInt(port, 10));
}

/** The image's ENTRYPOINT, in its exec (JSON array) form. */
export function imageEntrypoint(): string[] {
  const line = finalStage().findLast((instruction) => /^ENTRYPOINT\s/i.test(instruction));
  if (!line) throw new Error('the Dockerfile\'s last stage has no ENTRYPOINT');
  return JSON.parse(line.slice('ENTRYPOINT'.length)) as string[];
}
