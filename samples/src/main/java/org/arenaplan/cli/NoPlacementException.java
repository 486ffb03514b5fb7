package org.arenaplan.cli;

/** No placement within the capacity was found (exit code 3). */
final class NoPlacementException extends RuntimeException {
    NoPlacementException(String message) {
        super(message);
    }
}
