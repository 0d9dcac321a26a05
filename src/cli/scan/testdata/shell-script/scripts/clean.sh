#!/bin/sh
set -e
# look-alike: the project's own build output
rm -rf ./build
rm -rf /usr/local/lib/fixture-app
