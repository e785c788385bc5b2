// The floor any relay pays on this machine: a plain node:http proxy with a keep-alive pool that
// pipes each request to the upstream and its reply back (no auth, no routing, no billing). The
// relay benchmark runs it beside Switchyard so its figures read against what the hop alone costs.
// A second argument runs that many such processes on one port (node:cluster), the floor for a
// gateway with WEB_CONCURRENCY set alike.
import cluster from "node:cluster";
import { Agent, createServer, request } from "node:http";

const upstream = new URL(process.argv[2]);
const processes = Number(process.argv[3] ?? 1);
if (processes > 1 && cluster.isPrimary) {
  // Workers listen on the port the primary picked first (a free one), so the parent reads it here.
  const probe = createServer().listen(0, "127.0.0.1", () => {
    const port = probe.address().port;
    probe.close(() => {
      for (let i = 0; i < processes; i += 1) cluster.fork({ BARE_RELAY_PORT: String(port) });
      let listening = 0;
      cluster.on("listening", () => {
        listening += 1;
        if (listening === processes) console.log(String(port));
      });
    });
  });
  process.on("SIGTERM", () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.kill();
    process.exit(0);
  });
} else {
  serve(Number(process.env.BARE_RELAY_PORT ?? 0));
}

function serve(port) {
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server = createServer((req, res) => {
    const forward = request(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
        agent,
      },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers);
        reply.pipe(res);
      },
    );
    forward.on("error", () => {
      res.statusCode = 502;
      res.end();
    });
    req.pipe(forward);
  });
  server.listen(port, "127.0.0.1", () => {
    if (!cluster.isWorker) console.log(String(server.address().port));
  });
  process.on("SIGTERM", () => process.exit(0));
}
