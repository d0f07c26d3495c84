#!/usr/bin/env node
/** The `loyalty-proxy` command (see hosts/cli.ts). */
import './hosts/cli.ts';
