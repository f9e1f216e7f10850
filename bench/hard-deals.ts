/** The 30 book deals of the hard-deals issue: 18 that phase 2 and the prover's pass of the book estimate left unknown, and the 12 of docs/SOLVER.md's open problems (results/solve/HARD.md). */
export const HARD_DEALS = [
  465, 1539, 1908, 2854, 3349, 3901, 4098, 4336, 4745, 5087, 6743, 7507, 7735, 8081, 8239, 8490, 8993, 9227,
  30, 4347, 7386, 7685, 11183, 11330, 11421, 12541, 12750, 13364, 13518, 15660,
];
