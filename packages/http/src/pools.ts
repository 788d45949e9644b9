// The sizes of the connection pools an HTTP client keeps beside its bounded one for calls.

/**
 * Connections per origin for notifications and replies to the server's requests (`HttpRequest.control`).
 * Replies are already bounded by the transport's reply queue; this only keeps them, and cancellations,
 * from waiting behind calls that hold every connection of the main pool.
 */
export const CONTROL_CONNECTIONS = 8;
