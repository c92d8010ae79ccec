/**
 * The few globals every runtime Waymark targets has (browsers, dedicated workers, Node 16+), declared here
 * because shared/ compiles without DOM or worker libs on purpose.
 */
declare function btoa(data: string): string;
declare function atob(data: string): string;
