// placeholder until the recognizer lands
