#!/bin/sh
# Regenerates the *.list fixtures from the *.nft transactions with the real nft, in a private
# network namespace (needs root and nftables >= 1.0.1; the fixtures were made with 1.0.6).
set -e
cd "$(dirname "$0")"
for f in *.nft; do
  unshare -n sh -c "nft -f '$f' && nft list table ip kube-proxy" > "${f%.nft}.list"
done
