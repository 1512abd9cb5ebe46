// A Python package index on loopback, for tests of builds behind a mirror: pure-Python wheels
// made here (a wheel is a zip of the package and its .dist-info: METADATA, WHEEL, RECORD) and a
// PEP 503 simple index serving them over HTTP on 127.0.0.1. It records every path it was asked for.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32 } from 'node:zlib';

export interface Wheel {
  project: string; // normalized name, e.g. envolve-probe-a
  version: string;
  filename: string;
  content: Buffer;
  sha256: string;
}

// A stored (uncompressed) zip: local headers, then the central directory, then its end record.
function zip(files: Array<{ path: string; content: Buffer }>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const { path, content } of files) {
    const name = Buffer.from(path);
    const crc = crc32(content);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(content.length, 18);
    local.writeUInt32LE(content.length, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(content.length, 20);
    central.writeUInt32LE(content.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, content);
    centrals.push(central, name);
    offset += local.length + name.length + content.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.length, 8);
  end.writeUInt16LE(files.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const recordHash = (content: Buffer) => `sha256=${createHash('sha256').update(content).digest('base64url')}`;

// A py3-none-any wheel of one module, `module`, whose VALUE is `value`.
export function makeWheel(project: string, version: string, module: string, value: string): Wheel {
  const dist = `${project.replace(/-/g, '_')}-${version}`;
  const files = [
    { path: `${module}/__init__.py`, content: Buffer.from(`VALUE = ${JSON.stringify(value)}\n`) },
    { path: `${dist}.dist-info/METADATA`, content: Buffer.from(`Metadata-Version: 2.1\nName: ${project}\nVersion: ${version}\n`) },
    { path: `${dist}.dist-info/WHEEL`, content: Buffer.from('Wheel-Version: 1.0\nGenerator: envolve-test\nRoot-Is-Purelib: true\nTag: py3-none-any\n') },
  ];
  const recordPath = `${dist}.dist-info/RECORD`;
  const record = [...files.map((f) => `${f.path},${recordHash(f.content)},${f.content.length}`), `${recordPath},,`, ''].join('\n');
  const content = zip([...files, { path: recordPath, content: Buffer.from(record) }]);
  return { project, version, filename: `${dist}-py3-none-any.whl`, content, sha256: createHash('sha256').update(content).digest('hex') };
}

export interface WheelIndex {
  url: string; // the simple index: http://127.0.0.1:PORT/simple/
  requested: string[];
  close(): Promise<void>;
}

export async function serveWheelIndex(wheels: Wheel[]): Promise<WheelIndex> {
  const requested: string[] = [];
  const projects = new Map<string, Wheel[]>();
  for (const w of wheels) projects.set(w.project, [...(projects.get(w.project) ?? []), w]);
  const html = (links: string[]) => `<!DOCTYPE html><html><body>\n${links.join('\n')}\n</body></html>\n`;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const project = /^\/simple\/([^/]+)\/$/.exec(path)?.[1];
    const file = /^\/files\/([^/]+)$/.exec(path)?.[1];
    if (path === '/simple/') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(html([...projects.keys()].map((p) => `<a href="/simple/${p}/">${p}</a>`)));
    } else if (project && projects.has(project)) {
      const links = projects.get(project)!.map((w) => `<a href="/files/${w.filename}#sha256=${w.sha256}">${w.filename}</a>`);
      res.writeHead(200, { 'content-type': 'text/html' }).end(html(links));
    } else if (file && wheels.some((w) => w.filename === file)) {
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(wheels.find((w) => w.filename === file)!.content);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/simple/`,
    requested,
    close: () => new Promise<void>((resolve, reject) => server.close((err) => (err ? reject(err) : resolve()))),
  };
}
