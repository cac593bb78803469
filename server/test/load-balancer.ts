import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';

// A load balancer in front of several portal nodes, for the two-node e2e test and `npm run bench:load -- --nodes N`:
// Debian's nginx when installed (.ci/run installs it), else a small round-robin proxy in this process.

const NGINX = '/usr/sbin/nginx';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A port nobody listens on right now. */
export const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = net.createServer();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });

/**
 * Resolves once `url`/api/health answers 200; throws, naming `what` and `detail()`, when `child` exits first or
 * `withinMs` passes. Health is polled (every 100 ms) because it is the signal: a caller never goes on unhealthy.
 */
export async function waitUntilHealthy(
  url: string,
  opts: { what: string; child: ChildProcess; withinMs: number; detail?: () => string },
): Promise<void> {
  const deadline = Date.now() + opts.withinMs;
  for (;;) {
    if (opts.child.exitCode !== null || opts.child.signalCode !== null)
      throw new Error(
        `${opts.what} exited (${opts.child.exitCode ?? opts.child.signalCode}) before it was healthy${opts.detail ? `:\n${opts.detail()}` : ''}`,
      );
    const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(10_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(
        `${opts.what} was not healthy within ${opts.withinMs / 1000} s${opts.detail ? `:\n${opts.detail()}` : ''}`,
      );
    await sleep(100);
  }
}

export interface LoadBalancer {
  url: string;
  kind: 'nginx' | 'node proxy';
  stop: () => Promise<void>;
}

/** Round-robin over the nodes on 127.0.0.1:`ports`; nginx keeps its files in `dir`. */
export async function startLoadBalancer(ports: number[], dir: string): Promise<LoadBalancer> {
  return existsSync(NGINX) ? startNginx(ports, dir) : startNodeProxy(ports);
}

/** nginx round-robin over the nodes (X-Forwarded-*, 2 GB bodies, the next node on a refused connection). */
async function startNginx(ports: number[], dir: string): Promise<LoadBalancer> {
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `${asRoot ? 'user root;\n' : ''}worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 256; }
http {
access_log off;
client_body_temp_path ${dir}/body;
proxy_temp_path ${dir}/proxy;
fastcgi_temp_path ${dir}/fastcgi;
uwsgi_temp_path ${dir}/uwsgi;
scgi_temp_path ${dir}/scgi;
upstream portal {
${ports.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=5s;`).join('\n')}
}
server {
  listen 127.0.0.1:${port};
  client_max_body_size 2g;
  location / {
    proxy_pass http://portal;
    proxy_http_version 1.1;
    proxy_set_header Host $host;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_set_header X-Forwarded-Proto $scheme;
    proxy_set_header X-Forwarded-Host $host;
    proxy_request_buffering off;
    proxy_next_upstream error timeout;
    proxy_connect_timeout 10s;
  }
}
}
`,
  );
  const child = spawn(NGINX, ['-c', path.join(dir, 'nginx.conf'), '-p', dir, '-e', path.join(dir, 'error.log')], {
    stdio: 'ignore',
  });
  // Through nginx, once per node (round robin): each answers before the balancer is handed out, never a 502.
  const errorLog = () =>
    existsSync(path.join(dir, 'error.log')) ? readFileSync(path.join(dir, 'error.log'), 'utf8') : '';
  for (let i = 0; i < ports.length; i++)
    await waitUntilHealthy(`http://127.0.0.1:${port}`, { what: 'nginx', child, withinMs: 30_000, detail: errorLog });
  return {
    url: `http://127.0.0.1:${port}`,
    kind: 'nginx',
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGQUIT');
      await exited;
    },
  };
}

/**
 * Where nginx is missing: a round-robin proxy in this process. It reads each request whole, then sends it to the
 * next node over a new connection (no keep-alive, so a killed node refuses at once), trying the other node when one
 * refuses the connection: nothing reached the refusing node, so a write is never sent twice.
 */
async function startNodeProxy(ports: number[]): Promise<LoadBalancer> {
  let next = 0;
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const first = next++;
    const tryPort = (attempt: number) => {
      const port = ports[(first + attempt) % ports.length]!;
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port,
          method: req.method,
          path: req.url,
          agent: false,
          headers: { ...req.headers, 'content-length': String(body.length), 'x-forwarded-for': '127.0.0.1' },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      upstream.on('error', (err: NodeJS.ErrnoException) => {
        if (err.code === 'ECONNREFUSED' && attempt + 1 < ports.length) tryPort(attempt + 1);
        else if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
      upstream.end(body);
    };
    tryPort(0);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    kind: 'node proxy',
    stop: () => new Promise<void>((r) => server.close(() => r())),
  };
}
