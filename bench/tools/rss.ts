import { startServer } from "../../tests/support/server";
import { rssMb } from "../process-stats";
process.env.DATABASE_URL ??= "postgres://postgres@127.0.0.1:5432/postgres";
const server = await startServer({ kind: "postgres" });
await new Promise((r) => setTimeout(r, 1000));
console.log(`idle RSS ${rssMb(server.pid).toFixed(0)} MB`);
await server.stop();
