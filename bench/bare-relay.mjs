// The floor any relay pays on this machine: a plain node:http proxy with a keep-alive pool that
// pipes each request to the upstream and its reply back (no auth, no routing, no billing). The
// relay benchmark runs it beside Switchyard so its figures read against what the hop alone costs.
import { Agent, createServer, request } from "node:http";

const upstream = new URL(process.argv[2]);
const agent = new Agent({ keepAlive: true, maxSockets: 256 });
const server = createServer((req, res) => {
  const forward = request({ hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: req.headers, agent }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.headers);
    reply.pipe(res);
  });
  forward.on("error", () => {
    res.statusCode = 502;
    res.end();
  });
  req.pipe(forward);
});
server.listen(0, "127.0.0.1", () => console.log(String(server.address().port)));
process.on("SIGTERM", () => process.exit(0));
