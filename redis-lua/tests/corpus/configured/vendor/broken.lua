return (
