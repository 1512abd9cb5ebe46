// proxy.ts puts the requested path in this header, so requirePermission can send a
// signed-out visitor to /sign-in and back to where they were going.
export const PATH_HEADER = 'x-envolve-path';
