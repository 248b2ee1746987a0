int classify(int v);
