/**
 * `npm run datapath -- <command> …`: the entry point. The commands and their usage are in
 * ./run.ts; this file only writes their output to the process's streams and sets the exit
 * status (0, or 2 for a usage or input error).
 */
import { runCli } from './run';

const r = runCli(process.argv.slice(2));
process.stdout.write(r.stdout);
process.stderr.write(r.stderr);
process.exitCode = r.status;
