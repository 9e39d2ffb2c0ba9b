#!/bin/sh
# Patroni's post_bootstrap (docker/patroni.yml): run once, on the node that made the
# cluster, with a connection string to it as $1. Creates the server's database; the server
# migrates it when it starts (catan-server applies the migrations first).
set -eu
psql "$1" -v ON_ERROR_STOP=1 -qc "CREATE DATABASE catan"
